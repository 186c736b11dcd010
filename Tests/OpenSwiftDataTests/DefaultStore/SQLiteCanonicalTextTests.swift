import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Text is stored exactly as given; a column compares by its bytes (with its index) while it has
/// held only NFC text, and through `osd_nfc` once it has held other text.
@Suite struct SQLiteCanonicalTextTests {
    private static let columns = #""StoreTraveller"."Z_PK", "StoreTraveller"."email", "StoreTraveller"."name""#
    private static let composed = "jos\u{e9}@example.com"
    private static let decomposed = "jose\u{301}@example.com"

    private func store(_ directory: TemporaryDirectory) throws -> (ModelContainer, DefaultStore) {
        let container = try ModelContainer(for: StoreTraveller.self, configurations: ModelConfiguration(url: directory.file("text.store")))
        return (container, try #require(container.stores.first?.store as? DefaultStore))
    }

    private func byEmail(_ email: String) -> FetchDescriptor<StoreTraveller> {
        FetchDescriptor(predicate: #Predicate { $0.email == email })
    }

    @Test func aColumnComparesByItsIndexedBytesUntilItHoldsTextNotInNFC() throws {
        let directory = try TemporaryDirectory()
        let (container, store) = try store(directory)
        let context = ModelContext(container)
        context.insert(StoreTraveller(email: Self.composed, name: "Composed"))
        try context.save()
        #expect(try context.fetch(byEmail(Self.decomposed)).map(\.name) == ["Composed"], "the bound text is NFC, as every stored value")
        let plain = try store.selectStatementForTesting(byEmail(Self.decomposed))
        #expect(plain.sql == "SELECT \(Self.columns) FROM \"StoreTraveller\" WHERE (\"StoreTraveller\".\"email\" = ?) ORDER BY \"StoreTraveller\".\"Z_PK\"")
        #expect(plain.arguments == [Self.composed.databaseValue])
        let plan = try store.readForTesting { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(plain.sql)", arguments: StatementArguments(plain.arguments)).map { $0["detail"] as String }
        }
        #expect(plan == ["SEARCH StoreTraveller USING INDEX osd_StoreTraveller_unique_email (email=?)"])

        context.insert(StoreTraveller(email: "zoe\u{308}@example.com", name: "Decomposed"))
        try context.save()
        let normalized = try store.selectStatementForTesting(byEmail(Self.decomposed))
        #expect(normalized.sql == "SELECT \(Self.columns) FROM \"StoreTraveller\" WHERE (osd_nfc(\"StoreTraveller\".\"email\") = ?) ORDER BY \"StoreTraveller\".\"Z_PK\"")
        let reader = ModelContext(container)
        #expect(try reader.fetch(byEmail("zo\u{eb}@example.com")).map(\.name) == ["Decomposed"], "a kept plan is replaced once its column is flagged")
        #expect(try reader.fetch(byEmail(Self.decomposed)).map(\.name) == ["Composed"])
        let emails = try reader.fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)])).map(\.email)
        #expect(emails.map { Array($0.unicodeScalars) } == [Array(Self.composed.unicodeScalars), Array("zoe\u{308}@example.com".unicodeScalars)])
    }

    @Test func anInsertMergesIntoAStoredModelSpelledInTheOtherForm() throws {
        let directory = try TemporaryDirectory()
        let (container, _) = try store(directory)
        let writer = ModelContext(container)
        let first = StoreTraveller(email: Self.decomposed, name: "First")
        writer.insert(first)
        try writer.save()
        let other = ModelContext(container)
        let second = StoreTraveller(email: Self.composed, name: "Second")
        other.insert(second)
        try other.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>())
        #expect(stored.map(\.name) == ["Second"])
        #expect(stored.map { Array($0.email.unicodeScalars) } == [Array(Self.composed.unicodeScalars)])
        #expect(second.persistentModelID == first.persistentModelID)
    }

    /// No custom collation, index or default needs the store's functions: the `sqlite3` shell
    /// reads, writes and checks a file holding text in both forms.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func theSQLiteShellReadsWritesAndChecksTheFile() throws {
        let directory = try TemporaryDirectory()
        let (container, _) = try store(directory)
        let context = ModelContext(container)
        context.insert(StoreTraveller(email: Self.decomposed, name: "Decomposed"))
        try context.save()
        let output = try shell(directory.file("text.store"), """
            SELECT hex("email") FROM "StoreTraveller";
            INSERT INTO "StoreTraveller" ("email", "name") VALUES ('shell@example.com', 'Shell');
            SELECT "name" FROM "StoreTraveller" WHERE "email" = 'shell@example.com';
            PRAGMA integrity_check;
            """)
        #expect(output == "6A6F7365CC81406578616D706C652E636F6D\nShell\nok\n")
    }

    private func shell(_ file: URL, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [file.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

extension SQLiteCanonicalTextTests {
    /// The unique index compares bytes; the save looks for a twin in Swift's sense, and fails as
    /// every other store's does.
    @Test func anUpdateToACanonicalEquivalentOfAnotherModelsUniqueValueFails() throws {
        let directory = try TemporaryDirectory()
        let (container, _) = try store(directory)
        let context = ModelContext(container)
        let first = StoreTraveller(email: "jose\u{301}@example.com", name: "First")
        let second = StoreTraveller(email: "other@example.com", name: "Second")
        context.insert(first)
        context.insert(second)
        try context.save()
        second.email = "jos\u{e9}@example.com"
        #expect(throws: SQLiteStoreError.self) { try context.save() }
        second.email = "jos\u{e9}@example.net"
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.name)])).map(\.email)
        #expect(stored.map { Array($0.unicodeScalars) } == [Array("jose\u{301}@example.com".unicodeScalars), Array("jos\u{e9}@example.net".unicodeScalars)])
    }
}
