import Foundation
import OpenSwiftData

@Model final class Note {
    #Unique<Note>([\.slug])
    var slug: String
    var text: String
    var rank: Int
    var created: Date
    var folder: Folder?

    init(slug: String, text: String, rank: Int, created: Date = Date(timeIntervalSince1970: 1_000_000), folder: Folder? = nil) {
        self.slug = slug
        self.text = text
        self.rank = rank
        self.created = created
        self.folder = folder
    }
}

@Model final class Folder {
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \Note.folder) var notes: [Note] = []

    init(title: String) {
        self.title = title
    }
}

let notesSchema = Schema([Note.self, Folder.self])
