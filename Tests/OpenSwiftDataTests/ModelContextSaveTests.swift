import Foundation
import OpenSwiftData
import Testing

@Suite struct ModelContextSaveTests {
    @Test func saveRemapsTemporaryIdentifiersToTheStoresPermanentOnes() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        context.insert(trip)
        let temporary = trip.persistentModelID
        try context.save()
        #expect(script.saveRequests.map { [$0.inserted, $0.updated, $0.deleted] } == [[1, 0, 0]])
        #expect(trip.persistentModelID != temporary)
        #expect(trip.persistentModelID.storeIdentifier == "Scripted")
        #expect(context.registeredModel(for: trip.persistentModelID) as Trip? === trip)
        #expect(context.registeredModel(for: temporary) as Trip? == nil)
        #expect(!context.hasChanges)
    }

    @Test func storesThatKeepTemporaryIdentifiersKeepWorking() throws {
        let script = StoreScript()
        script.remapsIdentifiers = false
        let (container, _) = try scriptedContainer(Trip.self, script: script)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        #expect(trips[0].persistentModelID.storeIdentifier == nil)
        trips[0].budget = 10
        try context.save()
        let other = try ModelContext(container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Paris" }))
        #expect(other.map(\.budget) == [10])
    }

    @Test func updatesAndDeletesReachTheStoreInOneRequest() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].budget = 1
        trips[1].budget = 2
        context.delete(trips[2])
        try context.save()
        #expect(script.saveRequests.last! == (0, 2, 1))
    }

    @Test func aRejectedSaveKeepsEveryPendingChangeAndThrowsTheStoresError() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].budget = 1
        context.delete(trips[1])
        let extra = Trip(name: "Oslo", destination: "Norway", startDate: epoch)
        context.insert(extra)
        script.failNextSave = ScriptedFailure(reason: "disk full")
        #expect(throws: ScriptedFailure(reason: "disk full")) { try context.save() }
        #expect(context.changedModelsArray.count == 1)
        #expect(context.deletedModelsArray.count == 1)
        #expect(context.insertedModelsArray.count == 1)
        #expect(extra.persistentModelID.storeIdentifier == nil)
        #expect(script.rows.count == 3)
        try context.save()
        #expect(!context.hasChanges)
        #expect(script.rows.count == 3)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget == 1 })) == 1)
    }

    @Test func saveWithoutChangesDoesNotCallTheStore() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        try ModelContext(container).save()
        #expect(script.saveRequests.isEmpty)
    }

    @Test func saveNotifiesBeforeAndAfterWithTheChangedIdentifiers() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[0].budget = 1
        context.delete(trips[1])
        let oslo = Trip(name: "Oslo", destination: "Norway", startDate: epoch)
        context.insert(oslo)
        let deletedID = trips[1].persistentModelID
        let recorder = NotificationRecorder(context)
        try context.save()
        #expect(recorder.names == [ModelContext.willSave, ModelContext.didSave])
        #expect(recorder.willSaveUserInfoIsEmpty)
        let info = try #require(recorder.didSaveUserInfo)
        #expect(info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [oslo.persistentModelID])
        #expect(info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [trips[0].persistentModelID])
        #expect(info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [deletedID])
    }

    @Test func snapshotsToReregisterUpdateValuesWithoutReplacingInstances() throws {
        let script = StoreScript()
        script.reregisterAllOnSave = true
        let (container, _) = try scriptedContainer(Trip.self, script: script)
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(fetched.count == 3)
        #expect(zip(fetched, trips).allSatisfy { $0 === $1 })
    }

    @Test func transactionSavesWhatTheBlockDid() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        try context.transaction {
            context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
        }
        #expect(!context.hasChanges)
        #expect(script.rows.count == 1)
    }

    @Test func aThrowingTransactionSavesNothingAndKeepsItsChangesPending() throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        #expect(throws: ScriptedFailure(reason: "stop")) {
            try context.transaction {
                context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
                throw ScriptedFailure(reason: "stop")
            }
        }
        #expect(script.rows.isEmpty)
        #expect(context.insertedModelsArray.count == 1)
    }
}

/// Records the save notifications one context posts.
final class NotificationRecorder: @unchecked Sendable {
    private(set) var names: [Notification.Name] = []
    private(set) var willSaveUserInfoIsEmpty = true
    private(set) var didSaveUserInfo: [AnyHashable: Any]?
    private var observers: [any NSObjectProtocol] = []

    init(_ context: ModelContext) {
        for name in [ModelContext.willSave, ModelContext.didSave] {
            observers.append(NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [unowned self] note in
                names.append(note.name)
                if note.name == ModelContext.willSave { willSaveUserInfoIsEmpty = note.userInfo?.isEmpty ?? true }
                if note.name == ModelContext.didSave { didSaveUserInfo = note.userInfo }
            })
        }
    }

    deinit { observers.forEach(NotificationCenter.default.removeObserver) }
}
