import Foundation
import OpenSwiftData
import Testing

/// Relationship loading must cost a number of store requests that does not grow with the number
/// of models (no N+1), on the SQLite store where each request is one query.
@Suite struct PrefetchTests {
    private func populatedContainer(voyages count: Int) throws -> ModelContainer {
        let url = ScratchFiles.store("prefetch")
        let container = try ModelContainer(for: Voyage.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        for index in 0..<count {
            let voyage = Voyage(name: "V\(index)")
            voyage.legs = (0..<3).map { Leg(title: "V\(index)-L\($0)") }
            voyage.lodging = Lodging(place: "H\(index)")
            context.insert(voyage)
        }
        try context.save()
        return container
    }

    @Test(arguments: [10, 1_000])
    func prefetchingCostsOneQueryPerRelationshipWhateverTheNumberOfParents(voyages count: Int) throws {
        let container = try populatedContainer(voyages: count)
        let store = try #require(container.stores.first)
        let reader = ModelContext(container)
        var descriptor = FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.legs, \.lodging]
        let before = store.fetchRequestCount
        let voyages = try reader.fetch(descriptor)
        let legs = voyages.flatMap { $0.legs.map(\.title) }
        let places = voyages.compactMap { $0.lodging?.place }
        #expect(store.fetchRequestCount - before == 3)
        #expect(legs.count == count * 3)
        #expect(places.count == count)
        #expect(voyages.allSatisfy { voyage in voyage.legs.allSatisfy { $0.voyage === voyage } })
    }

    @Test func aToManyReadWithoutPrefetchingLoadsInOneQueryNotOnePerTarget() throws {
        let container = try populatedContainer(voyages: 2)
        let store = try #require(container.stores.first)
        let reader = ModelContext(container)
        let voyage = try #require(reader.fetch(FetchDescriptor<Voyage>(predicate: #Predicate { $0.name == "V1" })).first)
        let before = store.fetchRequestCount
        #expect(voyage.legs.map(\.title).sorted() == ["V1-L0", "V1-L1", "V1-L2"])
        #expect(store.fetchRequestCount - before == 1)
        #expect(reader.fetchIdentifiersRegisteredCount(Leg.self) == 3)
    }
}

extension ModelContext {
    /// How many `M` models the context holds: a relationship read must not load the whole table.
    func fetchIdentifiersRegisteredCount<M: PersistentModel>(_: M.Type) -> Int {
        (try? fetchIdentifiers(FetchDescriptor<M>()).filter { (registeredModel(for: $0) as M?) != nil }.count) ?? -1
    }
}
