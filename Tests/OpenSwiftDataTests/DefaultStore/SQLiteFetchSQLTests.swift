import Foundation
import GRDB
import OpenSwiftData
import Testing

@Suite struct SQLiteFetchSQLTests {
    static let tripColumns = #""StoreTrip"."Z_PK", "StoreTrip"."name", "StoreTrip"."nights", "StoreTrip"."budget", "StoreTrip"."startDate", "StoreTrip"."notes", "StoreTrip"."traveller""#

    private func store() throws -> (ModelContainer, DefaultStore) {
        let container = try ModelContainer(for: StoreTrip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        return (container, try #require(container.stores.first?.store as? DefaultStore))
    }

    @Test func aPlainFetchSelectsEveryColumnInKeyOrder() throws {
        let (_, store) = try store()
        let statement = try store.selectStatementForTesting(FetchDescriptor<StoreTrip>())
        #expect(statement.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(statement.arguments == [])
    }

    @Test func filterSortLimitAndOffsetRunInSQLWithBoundValues() throws {
        let (_, store) = try store()
        var descriptor = FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.name == "Paris" && $0.nights > 3 },
                                                    sortBy: [SortDescriptor(\.budget, order: .reverse)])
        descriptor.fetchLimit = 10
        descriptor.fetchOffset = 5
        let statement = try store.selectStatementForTesting(descriptor)
        #expect(statement.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" WHERE ((\"StoreTrip\".\"name\" = ?) AND (\"StoreTrip\".\"nights\" > ?)) ORDER BY \"StoreTrip\".\"budget\" DESC, \"StoreTrip\".\"Z_PK\" LIMIT ? OFFSET ?")
        #expect(statement.arguments == ["Paris".databaseValue, 3.databaseValue, 10.databaseValue, 5.databaseValue])
    }

    @Test func optionalsStringsAndDatesUseTheStoredForms() throws {
        let (_, store) = try store()
        let day = Date(timeIntervalSinceReferenceDate: 86_400)
        let statement = try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(predicate: #Predicate {
            $0.notes == nil || ($0.name.contains("e\u{301}") && $0.startDate < day)
        }))
        #expect(statement.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" WHERE ((\"StoreTrip\".\"notes\" IS NULL) OR (osd_contains(\"StoreTrip\".\"name\", ?, 0) AND (\"StoreTrip\".\"startDate\" < ?))) ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(statement.arguments == ["\u{E9}".databaseValue, 86_400.0.databaseValue])
    }

    @Test func aPathThroughAToOneRelationshipIsAScalarSubquery() throws {
        let (_, store) = try store()
        let statement = try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.traveller?.name == "Mai" }))
        #expect(statement.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" WHERE ((SELECT \"p1\".\"name\" FROM \"StoreTraveller\" AS \"p1\" WHERE \"p1\".\"Z_PK\" = \"StoreTrip\".\"traveller\") IS ?) ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(statement.arguments == ["Mai".databaseValue])
    }

    @Test func identifierListsAreBoundOneByOneOrAsOneJSONArgument() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        let trips = (0..<3).map { StoreTrip(name: "t\($0)") }
        trips.forEach(context.insert)
        try context.save()
        let few = Set(trips.prefix(2).map(\.persistentModelID))
        let small = try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(predicate: #Predicate { few.contains($0.persistentModelID) }))
        #expect(small.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" WHERE (\"StoreTrip\".\"Z_PK\" IN (?, ?)) ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(Set(small.arguments) == [1.databaseValue, 2.databaseValue])

        // 100,000 identifiers, of which three are stored: one argument, and the right rows.
        var many = Set(trips.map(\.persistentModelID))
        let storeIdentifier = try #require(trips[0].persistentModelID.storeIdentifier)
        for key in 1_000..<(1_000 + 99_997) {
            many.insert(try PersistentIdentifier.identifier(for: storeIdentifier, entityName: "StoreTrip", primaryKey: Int64(key)))
        }
        #expect(many.count == 100_000)
        let descriptor = FetchDescriptor<StoreTrip>(predicate: #Predicate { many.contains($0.persistentModelID) })
        let large = try store.selectStatementForTesting(descriptor)
        #expect(large.sql == "SELECT \(Self.tripColumns) FROM \"StoreTrip\" WHERE (\"StoreTrip\".\"Z_PK\" IN (SELECT value FROM json_each(?))) ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(large.arguments.count == 1)
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == ["t0", "t1", "t2"])
        #expect(try ModelContext(container).fetchCount(descriptor) == 3)
    }

    @Test func whatSQLCannotExpressExactlyIsLeftToTheContext() throws {
        let (_, store) = try store()
        #expect(throws: DataStoreError.preferInMemoryFilter) {
            try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.visits.filter { $0.place == "x" }.isEmpty }))
        }
        #expect(throws: DataStoreError.preferInMemorySort) {
            try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(sortBy: [SortDescriptor(\.name, comparator: .lexical)]))
        }
    }

    @Test func countsAndBatchDeletesRunInSQL() throws {
        let (container, _) = try store()
        let context = ModelContext(container)
        for (name, nights) in [("a", 1), ("b", 5), ("c", 9), ("d", 12)] { context.insert(StoreTrip(name: name, nights: nights)) }
        try context.save()
        var paged = FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.nights > 2 })
        #expect(try ModelContext(container).fetchCount(paged) == 3)
        paged.fetchLimit = 2
        #expect(try ModelContext(container).fetchCount(paged) == 2)
        try context.delete(model: StoreTrip.self, where: #Predicate { $0.nights > 6 })
        #expect(try ModelContext(container).fetch(FetchDescriptor<StoreTrip>()).map(\.name) == ["a", "b"])
    }
}
