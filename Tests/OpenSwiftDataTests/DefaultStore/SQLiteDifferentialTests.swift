import DataStoreTesting
import Foundation
import OpenSwiftData
import TestModels
import Testing

/// Random predicates over random rows give the same models, in the same order, through SQL as
/// through `Predicate.evaluate` and `sort(using:)` in Swift.
@Suite struct SQLiteDifferentialTests {
    // Off the cooperative pool: 2,100 fetches would hold one of its threads for minutes.
    @Test(arguments: [UInt64(1), 2, 3])
    func sqlAndSwiftAgreeOnRandomPredicates(seed: UInt64) async throws {
        try await withBlockingWork { try compareRandomPredicates(seed: seed) }
    }

    private func compareRandomPredicates(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let container = try ModelContainer(for: DiffRow.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        DiffRow.randomRows(using: &generator).forEach(context.insert)
        try context.save()
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let all = try context.fetch(FetchDescriptor<DiffRow>())
        #expect(all.count == 160)
        var inSQL = Set<Int>()
        for round in 0..<700 {
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
            #expect(fetched.map(\.persistentModelID) == expected.map(\.persistentModelID), "seed \(seed), round \(round), template \(template)")
            #expect(try context.fetchCount(descriptor) == expected.count, "seed \(seed), round \(round), template \(template)")
            if (try? store.selectStatementForTesting(FetchDescriptor<DiffRow>(predicate: descriptor.predicate))) != nil { inSQL.insert(template) }
        }
        // Everything but NaN-holding `wild`, whose queries run in memory, is expressed in SQL.
        #expect(inSQL.isSuperset(of: Set(0..<DiffRow.templateCount).subtracting([10, 11])))
    }
}
