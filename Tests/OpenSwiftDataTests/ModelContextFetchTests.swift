import Foundation
import OpenSwiftData
import Testing

/// Fetching through a store that refuses predicates and sorts (the seeds' stores) and through one
/// that accepts them: the context must give the same answers either way.
@Suite struct ModelContextFetchTests {
    private func container(refusing: Bool) throws -> (ModelContainer, StoreScript) {
        let script = StoreScript()
        script.refusesPredicates = refusing
        script.refusesSorts = refusing
        return try scriptedContainer(Trip.self, script: script)
    }

    @Test func fetchFiltersAndSortsInMemoryWhenTheStoreAsks() throws {
        let (container, script) = try container(refusing: true)
        let context = ModelContext(container)
        try insertSampleTrips(into: context)
        let french = try ModelContext(container).fetch(FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "France" }, sortBy: [SortDescriptor(\.startDate, order: .reverse)]))
        #expect(french.map(\.name) == ["Lyon", "Paris"])
        // The first attempt carried the predicate; the retries dropped what the store refused.
        #expect(script.fetchDescriptors.map(\.predicate) == [true, false, false])
        #expect(script.fetchDescriptors.map(\.sorts) == [1, 1, 0])
    }

    /// A fresh context registers fetched rows without looking them up first; a row sent twice
    /// must still be one model, the one registered.
    @Test func aRowTheStoreSendsTwiceIsOneModelInAFreshContext() throws {
        let (container, script) = try container(refusing: true)
        try insertSampleTrips(into: ModelContext(container))
        script.sendsRowsTwice = true
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Kyoto", "Kyoto", "Lyon", "Lyon", "Paris", "Paris"])
        #expect(trips[0] === trips[1] && trips[2] === trips[3] && trips[4] === trips[5])
        #expect(trips.allSatisfy { (context.registeredModel(for: $0.persistentModelID) as Trip?) === $0 })
        trips[0].name = "Nara"
        #expect(context.hasChanges)
    }

    @Test(arguments: [(1, 1, ["Paris"]), (0, 2, ["Lyon", "Paris"]), (2, 5, ["Kyoto"]), (3, 1, [])])
    func limitAndOffsetApplyAfterAnInMemorySort(offset: Int, limit: Int, expected: [String]) throws {
        let (container, script) = try container(refusing: true)
        try insertSampleTrips(into: ModelContext(container))
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)])
        descriptor.fetchOffset = offset
        descriptor.fetchLimit = limit
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == expected)
        #expect(script.fetchDescriptors.last!.limit == nil)
    }

    @Test func limitAndOffsetApplyAfterAnInMemoryFilter() throws {
        let (container, script) = try container(refusing: true)
        try insertSampleTrips(into: ModelContext(container))
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.budget < 2000 })
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 1
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == ["Lyon"])
        #expect(script.fetchDescriptors.map(\.offset) == [1, nil])
    }

    @Test func fetchCountAndIdentifiersFallBackToMemoryToo() throws {
        let (container, _) = try container(refusing: true)
        let trips = try insertSampleTrips(into: ModelContext(container))
        let context = ModelContext(container)
        let french = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "France" }, sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetchCount(french) == 2)
        #expect(try context.fetchIdentifiers(french) == [trips[2].persistentModelID, trips[0].persistentModelID])
    }

    @Test func aFetchReturnsTheInstancesTheContextAlreadyHolds() throws {
        let (container, _) = try container(refusing: true)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        let fetched = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Kyoto" }))
        #expect(fetched.count == 1 && fetched[0] === trips[1])
        let again = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Kyoto" }))
        #expect(again[0] === fetched[0])
    }

    @Test func pendingInsertsChangesAndDeletesAreMergedIntoResults() throws {
        let (container, _) = try container(refusing: true)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        context.insert(Trip(name: "Nice", destination: "France", startDate: epoch + 10 * day))
        trips[0].destination = "Italy"
        context.delete(trips[2])
        trips[1].destination = "France"
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "France" }, sortBy: [SortDescriptor(\.startDate)])
        #expect(try context.fetch(descriptor).map(\.name) == ["Nice", "Kyoto"])
        #expect(try context.fetchCount(descriptor) == 2)
        var excluding = descriptor
        excluding.includePendingChanges = false
        #expect(try context.fetch(excluding).map(\.name).contains("Nice") == false)
    }

    @Test func pendingChangesRespectLimitAndOffset() throws {
        let (container, _) = try container(refusing: false)
        let context = ModelContext(container)
        try insertSampleTrips(into: context)
        context.insert(Trip(name: "Aarhus", destination: "Denmark", startDate: epoch, budget: 10))
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)])
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Aarhus", "Lyon"])
    }

    @Test func batchedFetchLoadsAllModelsInOrder() throws {
        let (container, _) = try container(refusing: true)
        let context = ModelContext(container)
        for index in 0..<25 {
            context.insert(Trip(name: "T\(index)", destination: "X", startDate: epoch + Double(index) * day, budget: Double(index)))
        }
        try context.save()
        let reader = ModelContext(container)
        let results = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget, order: .reverse)]), batchSize: 10)
        #expect(results.count == 25)
        #expect(results[0].name == "T24")
        #expect(results[24].name == "T0")
        #expect(results.map(\.budget) == (0..<25).reversed().map(Double.init))
        let identifiers = try reader.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)]), batchSize: 7)
        #expect(identifiers.count == 25)
        #expect(reader.registeredModel(for: identifiers[0]) as Trip? === results[24])
    }

    @Test func batchedFetchRefusesPendingChanges() throws {
        let (container, _) = try container(refusing: true)
        let context = ModelContext(container)
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
        #expect(throws: SwiftDataError.includePendingChangesWithBatchSize) {
            try context.fetch(FetchDescriptor<Trip>(), batchSize: 10)
        }
    }

    @Test func enumerateVisitsEveryMatchInBatches() throws {
        let (container, _) = try container(refusing: true)
        let context = ModelContext(container)
        for index in 0..<12 { context.insert(Trip(name: "T\(index)", destination: index.isMultiple(of: 2) ? "A" : "B", startDate: epoch, budget: Double(index))) }
        try context.save()
        var seen: [Double] = []
        try ModelContext(container).enumerate(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "A" }, sortBy: [SortDescriptor(\.budget)]),
                                              batchSize: 4) { seen.append($0.budget) }
        #expect(seen == [0, 2, 4, 6, 8, 10])
    }

    @Test func enumerateRefusesToLeaveUnsavedChanges() throws {
        let (container, _) = try container(refusing: true)
        try insertSampleTrips(into: ModelContext(container))
        let context = ModelContext(container)
        #expect(throws: PersistenceError.self) {
            try context.enumerate(FetchDescriptor<Trip>(), batchSize: 2) { $0.budget += 1 }
        }
        var visited = 0
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 2, allowEscapingMutations: true) { _ in visited += 1 }
        #expect(visited == 3)
    }

    @Test func modelForAnIdentifierLoadsItOrReturnsTheRegisteredOne() throws {
        let (container, _) = try container(refusing: true)
        let trips = try insertSampleTrips(into: ModelContext(container))
        let context = ModelContext(container)
        #expect(context.registeredModel(for: trips[1].persistentModelID) as Trip? == nil)
        let kyoto = try #require(context.model(for: trips[1].persistentModelID) as? Trip)
        #expect(kyoto.name == "Kyoto")
        #expect(kyoto.notes == "cherry blossoms")
        #expect(context.model(for: trips[1].persistentModelID) === kyoto)
        #expect(context.registeredModel(for: trips[1].persistentModelID) as Trip? === kyoto)
    }

    @Test func aFetchRefreshesUnchangedModelsWithWhatAnotherContextSaved() throws {
        let (container, _) = try container(refusing: true)
        let first = ModelContext(container)
        let trips = try insertSampleTrips(into: first)
        let second = ModelContext(container)
        let paris = try #require(second.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Paris" })).first)
        trips[0].budget = 42
        try first.save()
        _ = try second.fetch(FetchDescriptor<Trip>())
        #expect(paris.budget == 42)
    }

    @Test func batchDeleteOnAStoreWithoutBatchingDeletesAtTheNextSave() throws {
        let (container, script) = try container(refusing: true)
        let context = ModelContext(container)
        try insertSampleTrips(into: context)
        try context.delete(model: Trip.self, where: #Predicate { $0.destination == "France" })
        #expect(context.deletedModelsArray.count == 2)
        try context.save()
        #expect(script.rows.values.count == 1)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kyoto"])
    }

    @Test func aFetchOfAnUnknownModelTypeThrowsAClearError() throws {
        let (container, _) = try container(refusing: true)
        #expect(throws: PersistenceError.self) { try ModelContext(container).fetch(FetchDescriptor<Sample>()) }
    }
}
