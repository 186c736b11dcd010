import Foundation
import OpenSwiftData

@Model final class Note {
    #Unique<Note>([\.slug])
    var slug: String
    var text: String
    var rank: Int
    var created: Date
    /// Once it has held NaN, the SQLite store compares it in memory only (SQL orders NaN unlike
    /// Swift), so the server answers filters on it with 422.
    var score: Double = 0
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
