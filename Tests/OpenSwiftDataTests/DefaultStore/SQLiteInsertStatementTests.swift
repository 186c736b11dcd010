import Foundation
import OpenSwiftData
import Synchronization
import Testing

/// A model inserted under a key the save minted is written with a plain `INSERT`; the upsert is
/// kept for rows that may exist: a uniqueness twin of a stored or earlier-inserted model.
@Suite struct SQLiteInsertStatementTests {
    private static let visitInsert = #"INSERT INTO "StoreVisit" ("Z_PK", "place") VALUES (?, ?)"#
    private static let travellerInsert = #"INSERT INTO "StoreTraveller" ("Z_PK", "email", "name") VALUES (?, ?, ?)"#
    private static let travellerUpsert = travellerInsert
        + #" ON CONFLICT("Z_PK") DO UPDATE SET "email" = excluded."email", "name" = excluded."name""#

    /// The statements writing one table, in the order the store ran them.
    private final class Writes: Sendable {
        private let statements = Mutex<[String]>([])
        var all: [String] { statements.withLock { $0 } }
        func record(_ sql: String) { statements.withLock { $0.append(sql) } }
    }

    /// A context on a fresh in-memory store, and the store's inserts into `table` from now on.
    private func tracedContext(writing table: String) throws -> (ModelContainer, ModelContext, Writes) {
        let container = try ModelContainer(for: StoreVisit.self, StoreTraveller.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let writes = Writes()
        let prefix = "INSERT INTO \"\(table)\""
        store.traceStatementsForTesting { sql in
            if sql.hasPrefix(prefix) { writes.record(sql) }
        }
        return (container, ModelContext(container), writes)
    }

    @Test func modelsWithoutUniquenessConstraintsAreInsertedWithoutAConflictClause() throws {
        let (container, context, writes) = try tracedContext(writing: "StoreVisit")
        context.insert(StoreVisit(place: "Lisbon"))
        context.insert(StoreVisit(place: "Porto"))
        try context.save()
        #expect(writes.all == [Self.visitInsert, Self.visitInsert])
        let places = try ModelContext(container).fetch(FetchDescriptor<StoreVisit>(sortBy: [SortDescriptor(\.place)])).map(\.place)
        #expect(places == ["Lisbon", "Porto"])
    }

    @Test func aUniquenessTwinInTheSameSaveIsUpsertedOverTheFirstInsert() throws {
        let (container, context, writes) = try tracedContext(writing: "StoreTraveller")
        context.insert(StoreTraveller(email: "ana@example.com", name: "Ana"))
        context.insert(StoreTraveller(email: "ana@example.com", name: "Ana Lima"))
        context.insert(StoreTraveller(email: "bo@example.com", name: "Bo"))
        try context.save()
        #expect(writes.all == [Self.travellerInsert, Self.travellerUpsert, Self.travellerInsert])
        let names = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)])).map(\.name)
        #expect(names == ["Ana Lima", "Bo"])
    }

    @Test func aUniquenessTwinOfAStoredModelIsUpserted() throws {
        let (container, context, writes) = try tracedContext(writing: "StoreTraveller")
        context.insert(StoreTraveller(email: "ana@example.com", name: "Ana"))
        try context.save()
        let second = ModelContext(container)
        second.insert(StoreTraveller(email: "ana@example.com", name: "Ana Lima"))
        try second.save()
        #expect(writes.all == [Self.travellerInsert, Self.travellerUpsert])
        let names = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>()).map(\.name)
        #expect(names == ["Ana Lima"])
    }
}
