import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// The store renders each query shape once and binds each query's own constants and paging.
@Suite struct PostgresSelectPlanTests {
    private func tickets(_ codes: [String]) throws -> (PostgresStore, ModelContext) {
        let configuration = try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: try TestDatabase.makeDatabase())
        let container = try ModelContainer(for: PGTicket.self, configurations: configuration)
        let context = ModelContext(container)
        for (index, code) in codes.enumerated() { context.insert(PGTicket(code: code, seats: index + 1)) }
        try context.save()
        let store = try #require(container.stores.first?.store as? PostgresStore)
        return (store, ModelContext(container))
    }

    private func codes(_ context: ModelContext, atLeast seats: Int, limit: Int, offset: Int) throws -> [String] {
        var descriptor = FetchDescriptor<PGTicket>(predicate: #Predicate { $0.seats >= seats }, sortBy: [SortDescriptor(\.seats)])
        descriptor.fetchLimit = limit
        descriptor.fetchOffset = offset
        return try context.fetch(descriptor).map(\.code)
    }

    @Test func queriesOfOneShapeShareOnePlanAndBindTheirOwnConstantsAndPaging() throws {
        let (store, context) = try tickets(["A1", "A2", "A3", "A4", "A5"])
        let before = store.selectPlanCountForTesting
        #expect(try codes(context, atLeast: 2, limit: 2, offset: 0) == ["A2", "A3"])
        #expect(try codes(context, atLeast: 3, limit: 1, offset: 1) == ["A4"])
        #expect(try codes(context, atLeast: 5, limit: 3, offset: 0) == ["A5"])
        #expect(store.selectPlanCountForTesting == before + 1)
    }

    @Test func aPlannedStringConstantIsComparedByCanonicalEquivalence() throws {
        let (store, context) = try tickets(["caf\u{E9}", "cafe"])
        func seats(_ code: String) throws -> [Int] {
            try context.fetch(FetchDescriptor<PGTicket>(predicate: #Predicate { $0.code == code })).map(\.seats)
        }
        let before = store.selectPlanCountForTesting
        #expect(try seats("cafe\u{301}") == [1])
        #expect(try seats("cafe") == [2])
        #expect(try seats("caf\u{E9}") == [1])
        #expect(store.selectPlanCountForTesting == before + 1)
    }
}
