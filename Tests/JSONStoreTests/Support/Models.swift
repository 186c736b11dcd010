import Foundation
import JSONStore
import OpenSwiftData

// Local: FileFormatTests compares whole files, which spell these entity and property names.
@Model final class JSONNote {
    var title: String
    var created: Date
    var body: String?
    var tag: JSONTag?

    init(title: String, created: Date = Date(timeIntervalSinceReferenceDate: 0), body: String? = nil, tag: JSONTag? = nil) {
        self.title = title
        self.created = created
        self.body = body
        self.tag = tag
    }
}

@Model final class JSONTag {
    @Attribute(.unique) var name: String

    init(name: String) {
        self.name = name
    }
}

/// A directory of its own for one test, removed when the test ends.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("JSONStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the directory, hidden ones included.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}

func notesContainer(_ url: URL, formatting: JSONStoreConfiguration.OutputFormatting = .prettyPrinted) throws -> ModelContainer {
    try ModelContainer(for: JSONNote.self, JSONTag.self,
                       configurations: JSONStoreConfiguration(name: "notes", url: url, outputFormatting: formatting))
}

func text(of url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
}

/// The `JSONStoreCrashWriter` built next to the test bundle.
var crashWriterURL: URL? {
    let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL].map {
        $0.deletingLastPathComponent().appendingPathComponent("JSONStoreCrashWriter")
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}
