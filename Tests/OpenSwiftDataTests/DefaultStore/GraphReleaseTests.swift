import OpenSwiftData
import Testing

/// Related models are freed once they leave their context (deleted and saved, or the context is
/// gone): their relationships let go of each other instead of keeping the graph alive through
/// its inverses.
@Suite struct GraphReleaseTests {
    private func savedGraph() throws -> ModelContext {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        RelationshipGraph.insert(into: context)
        try context.save()
        return context
    }

    @Test func aGraphDeletedModelByModelIsFreedAfterTheSave() throws {
        let context = try savedGraph()
        weak var paris: RelTrip?
        weak var louvre: RelItem?
        weak var ana: RelTraveler?
        do {
            let trip = try #require(try context.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" })).first)
            paris = trip
            louvre = trip.bucketList.first { $0.title == "Louvre" }
            ana = trip.travelers.first { $0.name == "Ana" }
            #expect(louvre != nil && ana != nil)
            for model in try context.fetch(FetchDescriptor<RelItem>()) { context.delete(model) }
            for model in try context.fetch(FetchDescriptor<RelStay>()) { context.delete(model) }
            for model in try context.fetch(FetchDescriptor<RelTraveler>()) { context.delete(model) }
            for model in try context.fetch(FetchDescriptor<RelTrip>()) { context.delete(model) }
            try context.save()
        }
        #expect(paris == nil)
        #expect(louvre == nil)
        #expect(ana == nil)
    }

    @Test func aGraphDeletedInBatchesIsFreed() throws {
        let context = try savedGraph()
        weak var paris: RelTrip?
        weak var stay: RelStay?
        do {
            let trip = try #require(try context.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" })).first)
            paris = trip
            stay = trip.accommodation
            #expect(stay != nil)
            try context.delete(model: RelItem.self)
            try context.delete(model: RelStay.self)
            try context.delete(model: RelTraveler.self)
            try context.delete(model: RelTrip.self)
        }
        #expect(paris == nil)
        #expect(stay == nil)
    }

    @Test func aDeletedModelsRelationshipsReadEmptyOnceSaved() throws {
        let context = try savedGraph()
        let paris = try #require(try context.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" })).first)
        #expect(paris.bucketList.count == 3)
        context.delete(paris)
        try context.save()
        #expect(paris.isDeleted)
        #expect(paris.name == "Paris")
        #expect(paris.bucketList.isEmpty)
        #expect(paris.travelers.isEmpty)
        #expect(paris.accommodation == nil)
        #expect(paris.companion == nil)
    }

    @Test func aGraphIsFreedWithTheContextThatHeldIt() throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        weak var paris: RelTrip?
        weak var lutetia: RelStay?
        let kept: RelItem
        do {
            let context = ModelContext(container)
            RelationshipGraph.insert(into: context)
            try context.save()
            let trip = try #require(try context.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" })).first)
            paris = trip
            lutetia = trip.accommodation
            kept = try #require(trip.bucketList.first { $0.title == "Louvre" })
            #expect(lutetia?.trip === trip)
        }
        #expect(paris == nil)
        #expect(lutetia == nil)
        #expect(kept.title == "Louvre")
        #expect(kept.trip == nil)
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)])).map(\.bucketList.count) == [0, 3, 1])
    }
}
