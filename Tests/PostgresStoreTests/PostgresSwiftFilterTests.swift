import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// String tests PostgreSQL cannot compute by grapheme cluster run in the store: SQL selects a
/// superset, the store keeps the rows Swift's own semantics pass, then pages them.
@Suite struct PostgresSwiftFilterTests {
    /// Codes whose code points contain "e" or "👩" where their characters do not.
    private static let codes = ["cafe", "cafe\u{301}", "\u{1F469} solo", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} family", "tea"]

    private func store() throws -> PostgresStore {
        let configuration = try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: try TestDatabase.makeDatabase())
        let container = try ModelContainer(for: PGTicket.self, configurations: configuration)
        let context = ModelContext(container)
        for (index, code) in Self.codes.enumerated() { context.insert(PGTicket(code: code, seats: index + 1)) }
        try context.save()
        return try #require(container.stores.first?.store as? PostgresStore)
    }

    private func seats(_ store: PostgresStore, _ filter: QueryExpression, limit: Int? = nil, offset: Int? = nil) throws -> [Int] {
        let query = DataStoreQuery(entityName: "PGTicket", filter: filter, sortBy: [QuerySortKey(path: ["seats"], ascending: false, kind: .integer)],
                                   fetchLimit: limit, fetchOffset: offset)
        return try store.fetchSnapshots(query).map { $0.values["seats"]?.value as? Int ?? -1 }
    }

    private func contains(_ needle: String) -> QueryExpression {
        .stringContains(.property(["code"]), .value(.string(needle)), options: [])
    }

    @Test func containsMatchesWholeCharactersInTheStore() throws {
        let store = try store()
        #expect(try seats(store, contains("e")) == [5, 1])
        #expect(try seats(store, contains("\u{1F469}")) == [3])
        #expect(try seats(store, .not(contains("e"))) == [4, 3, 2])
        #expect(try store.fetchCount(DataStoreQuery(entityName: "PGTicket", filter: contains("e"))) == 2)
    }

    @Test func startsWithAndPagingApplyAfterTheSwiftTest() throws {
        let store = try store()
        let cafe = QueryExpression.startsWith(.property(["code"]), prefix: .value(.string("cafe")))
        #expect(try seats(store, cafe) == [1])
        let either = QueryExpression.or(contains("e"), .comparison(.property(["seats"]), .greaterThan, .value(.integer(3)), type: QueryValueType(.integer)))
        #expect(try seats(store, either) == [5, 4, 1])
        #expect(try seats(store, either, limit: 1, offset: 1) == [4])
        #expect(try store.fetchIdentifiers(DataStoreQuery(entityName: "PGTicket", filter: either, fetchLimit: 2)).count == 2)
    }

    @Test func caseInsensitiveContainsIsTestedInSwiftOnEveryRow() throws {
        let store = try store()
        let insensitive = QueryExpression.stringContains(.property(["code"]), .value(.string("CAF\u{C9}")), options: [.caseInsensitive])
        #expect(try seats(store, insensitive) == [2])
    }
}
