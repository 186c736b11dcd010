import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteStorePersistenceTests {
    private func container(_ url: URL, allowsSave: Bool = true) throws -> ModelContainer {
        try ModelContainer(for: StoreTrip.self, configurations: ModelConfiguration(url: url, allowsSave: allowsSave))
    }

    @Test func savedModelsAreReadBackByAContainerOpenedLaterOnTheSameFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        do {
            let context = ModelContext(try container(url))
            context.insert(StoreTrip(name: "Paris", nights: 3, budget: 1200.5, notes: "spring"))
            context.insert(StoreTrip(name: "Kyoto", nights: 7, budget: 3400))
            try context.save()
        }
        let trips = try ModelContext(try container(url)).fetch(FetchDescriptor<StoreTrip>())
        #expect(trips.map(\.name) == ["Paris", "Kyoto"])
        #expect(trips.map(\.nights) == [3, 7])
        #expect(trips.map(\.budget) == [1200.5, 3400])
        #expect(trips.map(\.notes) == ["spring", nil])
    }

    @Test func permanentIdentifiersAreTheSameAfterReopeningTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        let first = try container(url)
        let context = ModelContext(first)
        let trip = StoreTrip(name: "Lima")
        context.insert(trip)
        try context.save()
        let identifier = trip.persistentModelID
        let reopened = try container(url)
        #expect(identifier.storeIdentifier == reopened.stores.first?.identifier)
        #expect(try ModelContext(reopened).fetchIdentifiers(FetchDescriptor<StoreTrip>()) == [identifier])
        #expect((ModelContext(reopened).model(for: identifier) as? StoreTrip)?.name == "Lima")
    }

    @Test func inMemoryContainersEachHaveTheirOwnDatabase() throws {
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        let first = try ModelContainer(for: StoreTrip.self, configurations: configuration)
        let second = try ModelContainer(for: StoreTrip.self, configurations: configuration)
        let context = ModelContext(first)
        context.insert(StoreTrip(name: "Oslo"))
        try context.save()
        #expect(try ModelContext(first).fetchCount(FetchDescriptor<StoreTrip>()) == 1)
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<StoreTrip>()) == 0)
        #expect(first.stores.first?.identifier != second.stores.first?.identifier)
    }

    @Test func aNamedConfigurationCreatesItsFileInTheDataDirectory() throws {
        let name = "osd-test-\(UUID().uuidString)"
        let configuration = ModelConfiguration(name, schema: Schema([StoreTrip.self]))
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: configuration.url.path + suffix) }
        }
        #expect(configuration.url == ModelConfiguration.defaultDirectory.appendingPathComponent("\(name).store"))
        let context = ModelContext(try ModelContainer(for: StoreTrip.self, configurations: configuration))
        context.insert(StoreTrip(name: "Rome"))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: configuration.url.path))
    }

    @Test func aReadOnlyConfigurationReadsButRefusesToSaveOrDelete() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        let writer = ModelContext(try container(url))
        writer.insert(StoreTrip(name: "Cairo"))
        try writer.save()

        let context = ModelContext(try container(url, allowsSave: false))
        #expect(try context.fetch(FetchDescriptor<StoreTrip>()).map(\.name) == ["Cairo"])
        context.insert(StoreTrip(name: "Quito"))
        let error = try #require(throws: PersistenceError.self) { try context.save() }
        #expect(error.code == .readOnly)
        #expect(error.message == "The store 'trips' (\(url.path)) was configured with allowsSave: false, so it cannot save; create its ModelConfiguration with allowsSave: true to change it.")
        let batch = try #require(throws: PersistenceError.self) { try context.delete(model: StoreTrip.self) }
        #expect(batch.code == .readOnly)
        #expect(try ModelContext(try container(url)).fetchCount(FetchDescriptor<StoreTrip>()) == 1)
    }

    @Test func aReadOnlyConfigurationWithoutAFileThrowsNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("missing.store")
        let error = try #require(throws: SQLiteStoreError.self) { try container(url, allowsSave: false) }
        #expect(error.code == .cannotOpen)
        #expect(error.path == url.path)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func eachConfigurationKeepsItsEntitiesInItsOwnFile() throws {
        let directory = try TemporaryDirectory()
        let trips = ModelConfiguration("trips", schema: Schema([StoreTrip.self, StoreTraveller.self, StoreVisit.self]), url: directory.file("trips.store"))
        let bookings = ModelConfiguration("bookings", schema: Schema([StoreBooking.self]), url: directory.file("bookings.store"))
        let container = try ModelContainer(for: Schema([StoreTrip.self, StoreBooking.self]), configurations: [trips, bookings])
        let context = ModelContext(container)
        context.insert(StoreTrip(name: "Bern"))
        context.insert(StoreBooking(hotel: "Bellevue", night: 1, guest: "Ana"))
        try context.save()

        let tripsOnly = try ModelContainer(for: StoreTrip.self, configurations: ModelConfiguration(url: directory.file("trips.store")))
        #expect(try ModelContext(tripsOnly).fetch(FetchDescriptor<StoreTrip>()).map(\.name) == ["Bern"])
        let bookingsOnly = try ModelContainer(for: StoreBooking.self, configurations: ModelConfiguration(url: directory.file("bookings.store")))
        #expect(try ModelContext(bookingsOnly).fetch(FetchDescriptor<StoreBooking>()).map(\.guest) == ["Ana"])
        let tables = try (bookingsOnly.stores.first?.store as? DefaultStore)?.readForTesting { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["StoreBooking", "osd_history_changes", "osd_history_tombstones", "osd_history_transactions", "osd_metadata", "sqlite_sequence"])
    }

    @Test func relationshipsRoundTripThroughTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        do {
            let context = ModelContext(try container(url))
            let trip = StoreTrip(name: "Hanoi")
            context.insert(trip)
            trip.traveller = StoreTraveller(email: "mai@example.com", name: "Mai")
            trip.visits = [StoreVisit(place: "Old Quarter"), StoreVisit(place: "Ha Long"), StoreVisit(place: "Temple")]
            try context.save()
        }
        // Models resolve relationships through their context, so it must outlive them.
        let reader = ModelContext(try container(url))
        let trip = try #require(try reader.fetch(FetchDescriptor<StoreTrip>()).first)
        #expect(trip.traveller?.name == "Mai")
        #expect(trip.visits.map(\.place) == ["Old Quarter", "Ha Long", "Temple"])
    }

    @Test func deletingAModelRemovesTheReferencesOtherModelsHoldToIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        let context = ModelContext(try container(url))
        let trip = StoreTrip(name: "Accra")
        context.insert(trip)
        let traveller = StoreTraveller(email: "kofi@example.com", name: "Kofi")
        let visits = [StoreVisit(place: "Market"), StoreVisit(place: "Castle")]
        trip.traveller = traveller
        trip.visits = visits
        try context.save()
        let other = ModelContext(try container(url))
        try other.delete(model: StoreTraveller.self)
        other.delete(try #require(try other.fetch(FetchDescriptor<StoreVisit>(predicate: #Predicate { $0.place == "Market" })).first))
        try other.save()

        let reader = ModelContext(try container(url))
        let reread = try #require(try reader.fetch(FetchDescriptor<StoreTrip>()).first)
        #expect(reread.traveller == nil)
        #expect(reread.visits.map(\.place) == ["Castle"])
    }

    @Test func batchDeletingEveryRegisteredModelDropsItsPendingChangesToo() throws {
        let directory = try TemporaryDirectory()
        let bookings = { try ModelContainer(for: StoreBooking.self, configurations: ModelConfiguration(url: directory.file("bookings.store"))) }
        let context = ModelContext(try bookings())
        let saved = (0..<3).map { StoreBooking(hotel: "Ritz", night: $0, guest: "g\($0)") }
        saved.forEach(context.insert)
        try context.save()
        saved[0].guest = "changed"
        context.delete(saved[1])
        let unsaved = StoreBooking(hotel: "Savoy", night: 1, guest: "new")
        context.insert(unsaved)
        #expect(context.hasChanges)

        try context.delete(model: StoreBooking.self)
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty && context.changedModelsArray.isEmpty && context.deletedModelsArray.isEmpty)
        #expect((saved + [unsaved]).allSatisfy { $0.isDeleted && $0.modelContext == nil })
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<StoreBooking>()) == 0)
        // A model deleted this way can be inserted into another context and saved afresh.
        let other = ModelContext(try bookings())
        other.insert(StoreBooking(hotel: "Ritz", night: 7, guest: "later"))
        try other.save()
        #expect(try context.fetch(FetchDescriptor<StoreBooking>()).map(\.guest) == ["later"])
    }

    @Test func eraseEmptiesTheStoreButKeepsItsIdentifierAndKeys() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("trips.store")
        let container = try container(url)
        let context = ModelContext(container)
        let first = StoreTrip(name: "Nice")
        context.insert(first)
        try context.save()
        try container.erase()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<StoreTrip>()) == 0)
        let next = ModelContext(container)
        let second = StoreTrip(name: "Nice again")
        next.insert(second)
        try next.save()
        #expect(second.persistentModelID.storeIdentifier == first.persistentModelID.storeIdentifier)
        #expect(second.persistentModelID != first.persistentModelID)
    }
}
