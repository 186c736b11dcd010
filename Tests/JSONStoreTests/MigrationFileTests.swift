import Foundation
import JSONStore
import OpenSwiftData
import Testing

enum JSONNotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [JSONNote.self, JSONTag.self] }
}

enum JSONNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JSONNotesV1.self] }
    static var stages: [MigrationStage] { [] }
}

/// How migration shows in the file: the seeds' files stay as they are, a store opened with a
/// plan keeps its record first in the array.
@Suite struct MigrationFileTests {
    private func container(_ url: URL, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try ModelContainer(for: Schema(versionedSchema: JSONNotesV1.self), migrationPlan: plan,
                           configurations: [JSONStoreConfiguration(name: "notes", url: url)])
    }

    @Test func aSeedsFileOpenedWithoutAPlanIsReadAndLeftAsItIs() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        do {
            let context = ModelContext(try notesContainer(url))
            context.insert(JSONNote(title: "a"))
            try context.save()
        }
        let before = try Data(contentsOf: url)
        #expect(try ModelContext(try container(url, plan: nil)).fetch(FetchDescriptor<JSONNote>()).map(\.title) == ["a"])
        #expect(try Data(contentsOf: url) == before)
        #expect(!(try text(of: url)).contains("schemaRecord"))
    }

    @Test func aStoreOpenedWithAPlanKeepsItsRecordFirstThroughSaves() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        do {
            let context = ModelContext(try container(url, plan: JSONNotesPlan.self))
            context.insert(JSONNote(title: "a"))
            try context.save()
        }
        #expect(try text(of: url).hasPrefix("[\n  {\n    \"schemaRecord\""))
        // Reopened without a plan, the store keeps the record it has in every save.
        let context = ModelContext(try container(url, plan: nil))
        context.insert(JSONNote(title: "b"))
        try context.save()
        let elements = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        #expect(elements.count == 4)
        #expect(elements.last?["crc32c"] != nil)
        let record = try JSONDecoder().decode(StoredSchema.self, from: JSONSerialization.data(withJSONObject: elements[0]["schemaRecord"] as Any))
        #expect(record == StoredSchema(Schema(versionedSchema: JSONNotesV1.self)))
        #expect(try ModelContext(try container(url, plan: JSONNotesPlan.self)).fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["a", "b"])
    }

    @Test func aSeedsFileOpenedWithAPlanGainsTheRecordInOneReplacement() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        do {
            let context = ModelContext(try notesContainer(url))
            context.insert(JSONNote(title: "a", body: "kept"))
            try context.save()
        }
        let notes = try ModelContext(try container(url, plan: JSONNotesPlan.self)).fetch(FetchDescriptor<JSONNote>())
        #expect(notes.map(\.body) == ["kept"])
        #expect(try text(of: url).contains("\"schemaRecord\""))
        #expect(scratch.contents == [".notes.json.lock", "notes.json"], "no working copy is left")
    }

    @Test func theWorkingCopyOfAKilledMigrationIsRemovedOnOpen() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        try Data("[{\"half".utf8).write(to: scratch.file(".notes.json.migrating"))
        try Data().write(to: scratch.file("..notes.json.migrating.lock"))
        _ = try container(url, plan: JSONNotesPlan.self)
        #expect(scratch.contents == [".notes.json.lock"])
    }
}
