import Foundation
import OpenSwiftData

/// A folder: a #Unique name, and notes that go with it (cascade).
@Model final class SyncFolder {
    #Unique<SyncFolder>([\.name])

    var name: String
    var color: Int = 0
    @Relationship(deleteRule: .cascade, inverse: \SyncNote.folder) var notes: [SyncNote] = []

    init(name: String, color: Int = 0) {
        self.name = name
        self.color = color
    }
}

/// A note: attributes of several types, a folder (to-one) and labels (many-to-many).
@Model final class SyncNote {
    var uid: String
    var title: String
    var body: String?
    var rating: Double = 0
    var created: Date
    var attachment: Data?
    var folder: SyncFolder?
    @Relationship(inverse: \SyncLabel.notes) var labels: [SyncLabel] = []

    init(uid: String, title: String, created: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.uid = uid
        self.title = title
        self.created = created
    }
}

/// A label: a #Unique name, on many notes.
@Model final class SyncLabel {
    #Unique<SyncLabel>([\.name])

    var name: String
    var notes: [SyncNote] = []

    init(name: String) {
        self.name = name
    }
}

enum SyncTestSchema {
    static let models: [any PersistentModel.Type] = [SyncFolder.self, SyncNote.self, SyncLabel.self]
    static var schema: Schema { Schema(models) }
}

/// A model no test container holds.
@Model final class SyncStray {
    var name: String

    init(name: String) {
        self.name = name
    }
}
