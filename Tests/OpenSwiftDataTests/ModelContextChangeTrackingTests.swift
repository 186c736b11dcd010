import Foundation
import OpenSwiftData
import Testing

@Suite struct ModelContextChangeTrackingTests {
    @Test func insertedModelIsPendingWithATemporaryIdentifier() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        #expect(trip.modelContext == nil)
        context.insert(trip)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 1)
        #expect(context.insertedModelsArray.first as? Trip === trip)
        #expect(trip.modelContext === context)
        #expect(trip.persistentModelID.storeIdentifier == nil)
        #expect(trip.persistentModelID.entityName == "Trip")
        #expect(trip.hasChanges)
        #expect(context.registeredModel(for: trip.persistentModelID) as Trip? === trip)
    }

    @Test func changingASavedModelMakesItChangedOnce() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        #expect(!context.hasChanges)
        trips[0].budget = 1500
        trips[0].notes = "first"
        #expect(context.changedModelsArray.count == 1)
        #expect(context.changedModelsArray.first as? Trip === trips[0])
        #expect(trips[0].hasChanges)
        #expect(!trips[1].hasChanges)
    }

    @Test func settingTheSameValueIsNotAChange() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].name = "Paris"
        #expect(!context.hasChanges)
    }

    @Test func deletingAnUnsavedModelDiscardsIt() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        context.insert(trip)
        context.delete(trip)
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty && context.deletedModelsArray.isEmpty)
        try context.save()
        #expect(script.saveRequests.isEmpty)
    }

    @Test func deletingASavedModelIsPendingUntilSave() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[1].budget = 1
        context.delete(trips[1])
        #expect(trips[1].isDeleted)
        #expect(context.changedModelsArray.isEmpty)
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(script.saveRequests.last! == (0, 0, 1))
        #expect(trips[1].modelContext == nil)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func insertingADeletedModelAgainCancelsTheDelete() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        context.delete(trips[0])
        context.insert(trips[0])
        #expect(!context.hasChanges)
        #expect(!trips[0].isDeleted)
    }

    @Test func rollbackRestoresSavedValuesAndDropsInsertsAndDeletes() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].budget = 9999
        trips[0].notes = "changed"
        context.delete(trips[1])
        let extra = Trip(name: "Oslo", destination: "Norway", startDate: epoch)
        context.insert(extra)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(trips[0].budget == 1200)
        #expect(trips[0].notes == nil)
        #expect(!trips[1].isDeleted)
        #expect(extra.modelContext == nil)
        #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Kyoto", "Lyon", "Paris"])
    }

    @Test func transientPropertiesAreNeitherTrackedNorSaved() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].isSelected = true
        #expect(!context.hasChanges)
        let reread = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(reread.map(\.isSelected) == [false, false, false])
    }

    @Test func contextsInitializeAndInvalidateTheirStoreState() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        var context: ModelContext? = ModelContext(container)
        let id = context!.editingState.id
        #expect(script.initializedStates == [id])
        context = nil
        #expect(script.invalidatedStates == [id])
    }

    @Test func authorIsTheEditingStatesAuthor() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        context.author = "importer"
        #expect(context.editingState.author == "importer")
    }

    @Test func modelsAreEqualByIdentityAcrossASave() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        context.insert(trip)
        let set: Set<Trip> = [trip]
        try context.save()
        #expect(set.contains(trip))
        #expect(trip.id == trip.persistentModelID)
    }

    @Test func pendingModelsKeepTheOrderTheyWereAddedInThroughRemovals() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = (0..<100).map { Trip(name: "Trip \($0)", destination: "Nowhere", startDate: epoch) }
        for trip in trips { context.insert(trip) }
        // Deleting an unsaved insert removes it from the pending inserts; 60 of 100 removed
        // compacts the set halfway through.
        for trip in trips[..<60] { context.delete(trip) }
        for trip in trips[90...] { context.delete(trip) }
        #expect(context.insertedModelsArray.map { ($0 as! Trip).name } == (60..<90).map { "Trip \($0)" })
        #expect(trips[59].hasChanges == false)
        #expect(trips[60].hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        for trip in trips[60..<90].reversed() { trip.budget = 1 }
        for trip in trips[60..<80] { context.delete(trip) }
        #expect(context.changedModelsArray.map { ($0 as! Trip).name } == (80..<90).reversed().map { "Trip \($0)" })
        #expect(context.deletedModelsArray.map { ($0 as! Trip).name } == (60..<80).map { "Trip \($0)" })
    }

    @Test func aModelRolledBackInOneContextCanBeInsertedIntoAnother() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let first = ModelContext(container)
        let second = ModelContext(container)
        let trips = (0..<3).map { Trip(name: "Trip \($0)", destination: "Nowhere", startDate: epoch) }
        for trip in trips { first.insert(trip) }
        first.rollback()
        #expect(!first.hasChanges)
        second.insert(trips[2])
        #expect(second.insertedModelsArray.map { $0 as! Trip } == [trips[2]])
        #expect(trips[2].modelContext === second)
        #expect(!first.hasChanges)
        second.delete(trips[2])
        #expect(!second.hasChanges)
        #expect(trips[2].modelContext == nil)
    }
}
