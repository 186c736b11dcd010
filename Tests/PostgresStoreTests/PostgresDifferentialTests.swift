import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import TestModels
import Testing

/// Random predicates over random rows give the same models, in the same order, through
/// PostgreSQL as through `Predicate.evaluate` and `sort(using:)` in Swift: the SQLite store's
/// differential test (`SQLiteDifferentialTests`), on `PostgresStore`.
@Suite struct PostgresDifferentialTests {
    static let rounds = 2_000

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func sqlAndSwiftAgreeOnRandomPredicates(seed: UInt64) async throws {
        try await withBlockingWork { try compareRandomPredicates(seed: seed) }
    }

    private func compareRandomPredicates(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let configuration = try PostgresStoreConfiguration(schema: Schema([DiffRow.self]), url: try TestDatabase.makeDatabase("diff\(seed)\(UUID().uuidString)"))
        let container = try ModelContainer(for: DiffRow.self, configurations: configuration)
        let context = ModelContext(container)
        DiffRow.randomRows(using: &generator).forEach(context.insert)
        try context.save()
        let store = try #require(container.stores.first?.store as? PostgresStore)
        let all = try context.fetch(FetchDescriptor<DiffRow>())
        #expect(all.count == 160)
        var inSQL = Set<Int>()
        var mismatches: [String] = []
        for round in 0..<Self.rounds {
            let template = round % DiffRow.templateCount
            var descriptor = FetchDescriptor<DiffRow>(predicate: DiffRow.randomPredicate(template: template, using: &generator), sortBy: DiffRow.randomSort(using: &generator))
            if Int.random(in: 0...3, using: &generator) == 0 {
                descriptor.fetchLimit = Int.random(in: 0...30, using: &generator)
                descriptor.fetchOffset = Int.random(in: 0...10, using: &generator)
            }
            var expected = try all.filter { try descriptor.predicate!.evaluate($0) }
            expected.sort(using: descriptor.sortBy)
            expected = Array(expected.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? .max))
            let fetched = try context.fetch(descriptor)
            let count = try context.fetchCount(descriptor)
            if fetched.map(\.persistentModelID) != expected.map(\.persistentModelID) || count != expected.count {
                mismatches.append("seed \(seed), round \(round), template \(template)")
            }
            let request = DataStoreFetchRequest(editingState: EditingState(), descriptor: FetchDescriptor<DiffRow>(predicate: descriptor.predicate))
            if (try? store.fetchCount(request)) != nil { inSQL.insert(template) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        // Every template runs in the store: what SQL cannot compute as Swift does (Character
        // semantics of contains, starts(with:) and count; tags.contains(where:)) is tested in Swift
        // on the superset SQL selects.
        #expect(inSQL == Set(0..<DiffRow.templateCount), "run in the store: \(inSQL.sorted())")
    }
}

