import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Predicates and sorts through relationships run in SQL and select what Swift's own evaluation
/// of the predicate selects.
@Suite struct SQLiteRelationshipQueryTests {
    static let tripColumns = #""RelTrip"."Z_PK", "RelTrip"."name", "RelTrip"."accommodation", "RelTrip"."companion""#

    struct TripQuery: Sendable, CustomTestStringConvertible {
        let name: String
        let predicate: Predicate<RelTrip>
        let expected: [String]
        var testDescription: String { name }
    }

    static let tripQueries = [
        TripQuery(name: "contains(where:) on a one-to-many", predicate: #Predicate { $0.bucketList.contains { !$0.isDone } }, expected: ["Paris", "Rome"]),
        TripQuery(name: "allSatisfy on a one-to-many", predicate: #Predicate { $0.bucketList.allSatisfy { $0.isDone } }, expected: ["Oslo"]),
        TripQuery(name: "count of a one-to-many", predicate: #Predicate { $0.bucketList.count > 2 }, expected: ["Paris"]),
        TripQuery(name: "isEmpty of a one-to-many", predicate: #Predicate { $0.bucketList.isEmpty }, expected: ["Oslo"]),
        TripQuery(name: "contains(where:) on a many-to-many", predicate: #Predicate { $0.travelers.contains { $0.name == "Ben" } }, expected: ["Paris"]),
        TripQuery(name: "count of a many-to-many", predicate: #Predicate { $0.travelers.count == 1 }, expected: ["Rome"]),
        TripQuery(name: "to-one of an element", predicate: #Predicate { $0.bucketList.contains { $0.trip?.companion?.name == "Paris" } }, expected: ["Rome"]),
        TripQuery(name: "to-one path", predicate: #Predicate { $0.companion?.accommodation?.place == "Hôtel Lutetia" }, expected: ["Rome"]),
        TripQuery(name: "negated contains(where:) on a one-to-many", predicate: #Predicate { !$0.bucketList.contains { $0.isDone } }, expected: ["Oslo", "Rome"]),
        TripQuery(name: "negated contains(where:) on a many-to-many", predicate: #Predicate { !$0.travelers.contains { $0.name == "Ben" } }, expected: ["Oslo", "Rome"]),
        TripQuery(name: "allSatisfy on a many-to-many", predicate: #Predicate { $0.travelers.allSatisfy { $0.name == "Ana" } }, expected: ["Oslo", "Rome"]),
        TripQuery(name: "contains(where:) reading the fetched trip", predicate: #Predicate { trip in trip.bucketList.contains { $0.title != trip.name && !$0.isDone } }, expected: ["Paris", "Rome"]),
    ]

    private func populated() throws -> (ModelContainer, DefaultStore) {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        RelationshipGraph.insert(into: context)
        try context.save()
        return (container, try #require(container.stores.first?.store as? DefaultStore))
    }

    @Test(arguments: tripQueries)
    func relationshipPredicatesRunInSQLAndMatchSwiftsEvaluation(_ query: TripQuery) throws {
        let (container, store) = try populated()
        _ = try store.selectStatementForTesting(FetchDescriptor(predicate: query.predicate))
        let context = ModelContext(container)
        let fetched = try context.fetch(FetchDescriptor(predicate: query.predicate)).map(\.name).sorted()
        let evaluated = try context.fetch(FetchDescriptor<RelTrip>()).filter { try query.predicate.evaluate($0) }.map(\.name).sorted()
        #expect(fetched == query.expected)
        #expect(evaluated == query.expected)
    }

    @Test(arguments: tripQueries)
    func theInMemoryStoreSelectsTheSameModels(_ query: TripQuery) throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: [InMemoryStoreConfiguration()])
        let writer = ModelContext(container)
        RelationshipGraph.insert(into: writer)
        try writer.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor(predicate: query.predicate)).map(\.name).sorted() == query.expected)
    }

    @Test func aToOnePathFromTheOtherSideRunsInSQL() throws {
        let (container, store) = try populated()
        let predicate = #Predicate<RelItem> { $0.trip?.name == "Paris" }
        _ = try store.selectStatementForTesting(FetchDescriptor(predicate: predicate))
        let context = ModelContext(container)
        let evaluated = try context.fetch(FetchDescriptor<RelItem>()).filter { try predicate.evaluate($0) }.map(\.title).sorted()
        #expect(try context.fetch(FetchDescriptor(predicate: predicate)).map(\.title).sorted() == evaluated)
        #expect(evaluated == ["Eiffel Tower", "Louvre", "Seine cruise"])
    }

    @Test func containsWhereOnAOneToManyIsAKeyListOfTheChildTable() throws {
        let (_, store) = try populated()
        let statement = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.bucketList.contains { !$0.isDone } }))
        #expect(statement.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE "RelTrip"."Z_PK" IN (SELECT j1."trip" FROM "RelItem" AS j1 WHERE j1."trip" IS NOT NULL AND (NOT j1."isDone")) ORDER BY "RelTrip"."Z_PK""#)
        #expect(statement.arguments == [])
    }

    @Test func containsWhereOnAManyToManyReadsTheRelatedRowsThroughTheJoinTable() throws {
        let (_, store) = try populated()
        let statement = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.travelers.contains { $0.name == "Ben" } }))
        #expect(statement.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE "RelTrip"."Z_PK" IN (SELECT lj1."member" FROM "osd_RelTraveler.trips" AS lj1 JOIN "RelTraveler" AS j1 ON j1."Z_PK" = lj1."owner" WHERE lj1."member" IS NOT NULL AND (j1."name" = ?)) ORDER BY "RelTrip"."Z_PK""#)
        #expect(statement.arguments == ["Ben".databaseValue])
    }

    @Test func allSatisfyIsTheKeysWithoutAFailingChild() throws {
        let (_, store) = try populated()
        let statement = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.bucketList.allSatisfy { $0.isDone } }))
        #expect(statement.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE "RelTrip"."Z_PK" NOT IN (SELECT j1."trip" FROM "RelItem" AS j1 WHERE j1."trip" IS NOT NULL AND NOT COALESCE(j1."isDone", 0)) ORDER BY "RelTrip"."Z_PK""#)
    }

    /// A test that reads the fetched row stays a correlated `EXISTS`, run per row.
    @Test func containsWhereReadingTheFetchedRowIsAnExistsPerRow() throws {
        let (_, store) = try populated()
        let statement = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { trip in trip.bucketList.contains { $0.title != trip.name } }))
        #expect(statement.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE EXISTS (SELECT 1 FROM "RelItem" AS j1 WHERE j1."trip" = "RelTrip"."Z_PK" AND (j1."title" <> "RelTrip"."name")) ORDER BY "RelTrip"."Z_PK""#)
    }

    /// Items without a trip leave no NULL in the key list, which would make `NOT IN` unknown.
    @Test func aChildWithoutParentDoesNotHideTheNegatedMatch() throws {
        let (container, _) = try populated()
        let context = ModelContext(container)
        context.insert(RelItem(title: "Loose end", isDone: true))
        try context.save()
        let trips = try ModelContext(container).fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { !$0.bucketList.contains { $0.isDone } }))
        #expect(trips.map(\.name).sorted() == ["Oslo", "Rome"])
    }

    @Test func countAndIsEmptyOfAToManyCountTheRelatedRows() throws {
        let (_, store) = try populated()
        let count = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.bucketList.count > 2 }))
        #expect(count.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE ((SELECT COUNT(*) FROM "RelItem" AS r WHERE r."trip" = "RelTrip"."Z_PK") > ?) ORDER BY "RelTrip"."Z_PK""#)
        #expect(count.arguments == [2.databaseValue])
        let empty = try store.selectStatementForTesting(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.travelers.isEmpty }))
        #expect(empty.sql == #"SELECT \#(Self.tripColumns) FROM "RelTrip" WHERE (NOT EXISTS (SELECT 1 FROM "osd_RelTraveler.trips" AS r WHERE r."member" = "RelTrip"."Z_PK")) ORDER BY "RelTrip"."Z_PK""#)
    }

    /// Sorting through a relationship runs in memory (see `QueryTranslator+Sort`): Swift can
    /// neither take `\.trip?.name` apart nor build it from `\.trip` and `\Trip.name`.
    @Test func sortingByAToOnePathGivesSwiftsOrder() throws {
        let (container, store) = try populated()
        #expect(throws: DataStoreError.preferInMemorySort) {
            try store.selectStatementForTesting(FetchDescriptor<RelItem>(sortBy: [SortDescriptor(\.trip?.name)]))
        }
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<RelItem>(sortBy: [SortDescriptor(\.trip?.name), SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["Eiffel Tower", "Louvre", "Seine cruise", "Colosseum"])
        let reversed = try context.fetch(FetchDescriptor<RelItem>(sortBy: [SortDescriptor(\.trip?.name, order: .reverse), SortDescriptor(\.title)]))
        #expect(reversed.map(\.title) == ["Colosseum", "Eiffel Tower", "Louvre", "Seine cruise"])
    }

    @Test(arguments: [5, 50])
    func prefetchingToManysCostsOneRequestPerRelationshipWhateverTheNumberOfTrips(trips count: Int) throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let ana = RelTraveler(name: "Ana")
        context.insert(ana)
        for index in 0..<count {
            let trip = RelTrip(name: "T\(index)")
            context.insert(trip)
            trip.bucketList = [RelItem(title: "T\(index)-a"), RelItem(title: "T\(index)-b")]
            trip.travelers = [ana]
        }
        try context.save()
        let slot = try #require(container.stores.first)
        var descriptor = FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.bucketList, \.travelers]
        let before = slot.fetchRequestCount
        let reader = ModelContext(container)
        let trips = try reader.fetch(descriptor)
        let titles = trips.flatMap { $0.bucketList.map(\.title) }
        let travelers = trips.flatMap { $0.travelers.map(\.name) }
        #expect(slot.fetchRequestCount - before == 3)
        #expect(titles.count == count * 2)
        #expect(travelers == Array(repeating: "Ana", count: count))
    }
}
