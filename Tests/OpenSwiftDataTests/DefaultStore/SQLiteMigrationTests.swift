import Foundation
import GRDB
import OpenSwiftData
import Testing

/// The model as it is now; the files it opens are written by hand as an older version wrote them.
@Model final class MigratingNote {
    var title: String
    @Attribute(originalName: "heading") var subject: String
    var created: Date
    var stars: Int = 3
    var body: String?
    var mood: String = "it's fine"
    var ratio: Double = 0.25

    init(title: String, subject: String, created: Date) {
        self.title = title
        self.subject = subject
        self.created = created
    }
}

@Suite struct SQLiteMigrationTests {
    static let storeIdentifier = "0F0E0D0C-0B0A-4908-8706-050403020100"

    /// A store file as version 1 wrote it: MigratingNote with `title`, `heading` and `created`,
    /// and two rows.
    private func writeVersion1(to url: URL, titleStorage: String = "text") throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE "osd_metadata" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
                CREATE TABLE "MigratingNote" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "heading" TEXT NOT NULL, "created" REAL NOT NULL);
                INSERT INTO "MigratingNote" VALUES (1, 'first', 'one', 0), (2, 'second', 'two', 86400);
                """)
            let tables = """
                [{"columns":[{"isOptional":false,"property":"title","storage":"\(titleStorage)"},{"isOptional":false,"property":"heading","storage":"text"},\
                {"isOptional":false,"property":"created","storage":"real"}],"entityName":"MigratingNote","indices":[],"uniqueConstraints":[]}]
                """
            for (key, value) in [("format", "1"), ("storeIdentifier", Self.storeIdentifier), ("tables", tables)] {
                try db.execute(sql: "INSERT INTO osd_metadata VALUES (?, ?)", arguments: [key, value])
            }
        }
        try queue.close()
    }

    private func columns(_ url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try db.columns(in: "MigratingNote").map(\.name) }
    }

    @Test func openingAnOlderFileAddsRenamesAndFillsColumnsAndKeepsIdentifiers() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.store")
        try writeVersion1(to: url)
        let container = try ModelContainer(for: MigratingNote.self, configurations: ModelConfiguration(url: url))
        #expect(container.stores.first?.identifier == Self.storeIdentifier)
        let notes = try ModelContext(container).fetch(FetchDescriptor<MigratingNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["first", "second"])
        #expect(notes.map(\.subject) == ["one", "two"])
        #expect(notes.map(\.created) == [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 86400)])
        #expect(notes.map(\.stars) == [3, 3])
        #expect(notes.map(\.body) == [nil, nil])
        #expect(notes.map(\.mood) == ["it's fine", "it's fine"])
        #expect(notes.map(\.ratio) == [0.25, 0.25])
        #expect(notes.map(\.persistentModelID.storeIdentifier) == [Self.storeIdentifier, Self.storeIdentifier])
        #expect(try columns(url) == ["Z_PK", "title", "subject", "created", "stars", "body", "mood", "ratio"])

        let context = ModelContext(container)
        context.insert(MigratingNote(title: "third", subject: "three", created: .distantPast))
        try context.save()
        let reopened = try ModelContainer(for: MigratingNote.self, configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<MigratingNote>()) == 3)
    }

    @Test func aChangedStoredTypeIsRefusedNamingEntityAndPropertyAndLeavesTheFileAlone() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.store")
        try writeVersion1(to: url, titleStorage: "integer")
        let before = try Data(contentsOf: url)
        let error = try #require(throws: SQLiteStoreError.self) {
            try ModelContainer(for: MigratingNote.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.code == .incompatibleSchema)
        #expect(error.message == "MigratingNote.title is stored as INTEGER but the model now declares TEXT; lightweight migration cannot convert it. Keep the old type, or add a new property and copy the values over.")
        #expect(error.path == url.path)
        #expect(try columns(url) == ["Z_PK", "title", "heading", "created"])
        #expect(try Data(contentsOf: url).count == before.count)
    }

    @Test func aNewNonOptionalPropertyWithoutDefaultIsRefusedWhenRowsExist() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.store")
        try writeVersion1(to: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE MigratingNote DROP COLUMN created")
            try db.execute(sql: """
                UPDATE osd_metadata SET value = '[{"columns":[{"isOptional":false,"property":"title","storage":"text"},{"isOptional":false,"property":"heading","storage":"text"}],"entityName":"MigratingNote","indices":[],"uniqueConstraints":[]}]' WHERE key = 'tables'
                """)
        }
        try queue.close()
        let error = try #require(throws: SQLiteStoreError.self) {
            try ModelContainer(for: MigratingNote.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.code == .incompatibleSchema)
        #expect(error.message == "MigratingNote.created is new and non-optional without a default value, so the models already stored would have no value for it. Give it a default value (var created: … = …) or make it optional.")
        #expect(try columns(url) == ["Z_PK", "title", "heading"])
    }

    @Test func aReadOnlyConfigurationDoesNotMigrate() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.store")
        try writeVersion1(to: url)
        let error = try #require(throws: SQLiteStoreError.self) {
            try ModelContainer(for: MigratingNote.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        }
        #expect(error.code == .migrationRequired)
        #expect(try columns(url) == ["Z_PK", "title", "heading", "created"])
    }
}
