import Foundation
import OpenSwiftData
import Synchronization
import Testing

/// A context's fetch leaves the to-manys kept by their destination's key (one-to-many) to be read
/// when first read: one query for every model of the fetch, none when nothing reads them.
@Suite struct SQLiteDeferredToManyTests {
    /// The one-to-many `RelTrip.bucketList` is read by this query; the many-to-many travelers by
    /// their join table, at fetch time.
    private static let bucketListKeys = #"SELECT "trip", "Z_PK" FROM "RelItem" WHERE "trip" IN (SELECT value FROM json_each(?)) ORDER BY "trip", "Z_PK""#

    private final class Statements: Sendable {
        private let sql = Mutex<[String]>([])
        var all: [String] { sql.withLock { $0 } }
        func record(_ statement: String) { sql.withLock { $0.append(statement) } }
        func count(of statement: String) -> Int { all.filter { $0 == statement }.count }
    }

    /// The graph saved, and a fresh context on it with the store's statements traced from now on.
    private func savedGraph() throws -> (ModelContainer, ModelContext, Statements) {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        RelationshipGraph.insert(into: writer)
        try writer.save()
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let statements = Statements()
        store.traceStatementsForTesting { statements.record($0) }
        return (container, ModelContext(container), statements)
    }

    private func tripsByName(_ context: ModelContext) throws -> [RelTrip] {
        try context.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)]))
    }

    @Test func aFetchWhoseToManysAreNotReadDoesNotQueryThem() throws {
        let (_, context, statements) = try savedGraph()
        #expect(try tripsByName(context).map(\.name) == ["Oslo", "Paris", "Rome"])
        #expect(statements.count(of: Self.bucketListKeys) == 0)
    }

    @Test func readingOneModelsToManyReadsItForTheWholeFetchInOneQuery() throws {
        let (_, context, statements) = try savedGraph()
        let trips = try tripsByName(context)
        let lists = trips.map { $0.bucketList.map(\.title).sorted() }
        #expect(lists == [[], ["Eiffel Tower", "Louvre", "Seine cruise"], ["Colosseum"]])
        #expect(statements.count(of: Self.bucketListKeys) == 1)
        #expect(trips.map { $0.travelers.map(\.name).sorted() } == [[], ["Ana", "Ben"], ["Ana"]])
    }

    @Test func theToManyReadsAsStoredWhenFirstRead() throws {
        let (container, context, _) = try savedGraph()
        let rome = try #require(try tripsByName(context).last)
        let other = ModelContext(container)
        let otherRome = try #require(try other.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Rome" })).first)
        otherRome.bucketList.append(RelItem(title: "Pantheon"))
        try other.save()
        #expect(rome.bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
    }

    @Test func deletingAFetchedModelCascadesToTheToManyItHasNotRead() throws {
        let (container, context, _) = try savedGraph()
        let paris = try #require(try tripsByName(context).dropFirst().first)
        context.delete(paris)
        try context.save()
        let titles = try ModelContext(container).fetch(FetchDescriptor<RelItem>()).map(\.title)
        #expect(titles == ["Colosseum"])
    }

    @Test func anInverseSetOnAnUnreadToManyJoinsTheStoredElements() throws {
        let (container, context, _) = try savedGraph()
        let rome = try #require(try tripsByName(context).last)
        let pantheon = RelItem(title: "Pantheon")
        context.insert(pantheon)
        pantheon.trip = rome
        #expect(rome.bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
        try context.save()
        let reader = ModelContext(container)
        let stored = try reader.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Rome" })).first
        #expect(stored?.bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
    }

    @Test func theStoresOwnFetchStillHandsOverEveryKey() throws {
        let (container, _, _) = try savedGraph()
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let request = DataStoreFetchRequest(editingState: EditingState(), descriptor: FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" }))
        let snapshot = try #require(try store.fetch(request).fetchedSnapshots.first)
        let items = snapshot.values["bucketList"]?.value as? [PersistentIdentifier]
        #expect(items?.count == 3)
    }
}
