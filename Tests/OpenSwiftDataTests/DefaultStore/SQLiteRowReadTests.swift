import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Rows another program changed so that a value no longer reads as its property's type.
@Suite struct SQLiteRowReadTests {
    @Test func aValueThatDoesNotReadAsItsTypeFailsTheFetchNamingThePropertyAndRow() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("rows.store")
        let container = try ModelContainer(for: StoreTraveller.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(StoreTraveller(email: "ana@example.com", name: "Ana"))
        context.insert(StoreTraveller(email: "bo@example.com", name: "Bo"))
        try context.save()

        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            // A BLOB where the model declares a String: the name of the second row (key 2) only.
            try db.execute(sql: "UPDATE \"StoreTraveller\" SET \"name\" = X'0102' WHERE \"Z_PK\" = 2")
        }
        try queue.close()

        let reader = ModelContext(container)
        let error = try #require(throws: SQLiteStoreError.self) { try reader.fetch(FetchDescriptor<StoreTraveller>()) }
        #expect(error.code == .invalidValue)
        #expect(error.description.contains("StoreTraveller.name of the stored model 2 cannot be read as String (expected TEXT)"))
        // The first row, before the broken one, still reads when fetched alone.
        var first = FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)])
        first.fetchLimit = 1
        #expect(try reader.fetch(first).map(\.name) == ["Ana"])
    }
}
