import Foundation
import OpenSwiftData
import Testing

@Suite struct ModelContainerTests {
    @Test func theContainerGivesAConfigurationWithoutASchemaItsOwn() throws {
        let configuration = ScriptedConfiguration()
        #expect(configuration.schema == nil)
        let container = try ModelContainer(for: Schema([Trip.self]), configurations: [configuration])
        #expect(configuration.schema?.entities.map(\.name) == ["Trip"])
        #expect(container.schema.entities.map(\.name) == ["Trip"])
        #expect(container.configurations.isEmpty)
    }

    @Test func twoConfigurationsWithOneNameAreRefused() {
        #expect(throws: SwiftDataError.duplicateConfiguration) {
            try ModelContainer(for: Schema([Trip.self]), configurations: [ScriptedConfiguration(name: "a"), ScriptedConfiguration(name: "a")])
        }
    }

    @Test func aConfigurationSchemaOutsideTheContainerSchemaIsRefused() {
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) {
            try ModelContainer(for: Schema([Trip.self]), configurations: [ScriptedConfiguration(schema: Schema([Item.self]))])
        }
    }

    @Test func invalidConfigurationNamesAreRefused() {
        #expect(throws: SwiftDataError.configurationFileNameContainsInvalidCharacters) {
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration("a/b", isStoredInMemoryOnly: true))
        }
        #expect(throws: SwiftDataError.configurationFileNameTooLong) {
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(String(repeating: "x", count: 256), isStoredInMemoryOnly: true))
        }
    }

    @Test func eachEntityIsSavedInTheStoreWhoseSchemaHasIt() throws {
        let trips = StoreScript(), items = StoreScript()
        let container = try ModelContainer(for: Schema([Trip.self, Item.self]), configurations: [
            ScriptedConfiguration(name: "trips", schema: Schema([Trip.self]), script: trips),
            ScriptedConfiguration(name: "items", schema: Schema([Item.self]), script: items),
        ])
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch)
        let item = Item(timestamp: epoch)
        context.insert(trip)
        context.insert(item)
        try context.save()
        #expect(trips.rows.keys.map(\.entityName) == ["Trip"])
        #expect(items.rows.keys.map(\.entityName) == ["Item"])
        #expect(trip.persistentModelID.storeIdentifier == "trips")
        #expect(item.persistentModelID.storeIdentifier == "items")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.id) == [item.id])
    }

    @Test func modelConfigurationsAreListedAndKeepTheirSettings() throws {
        let configuration = ModelConfiguration("cache", isStoredInMemoryOnly: true, allowsSave: true)
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        #expect(container.configurations.map(\.name) == ["cache"])
        #expect(configuration.url.path == "/dev/null")
        #expect(configuration.isStoredInMemoryOnly)
    }

    @Test func theDefaultFileLivesInThePerUserDataDirectory() {
        let configuration = ModelConfiguration()
        #expect(configuration.name == "default")
        #expect(configuration.url.lastPathComponent == "default.store")
        #expect(configuration.url.deletingLastPathComponent() == ModelConfiguration.defaultDirectory)
        #expect(ModelConfiguration(url: URL(fileURLWithPath: "/tmp/trips.store")).name == "trips")
    }

    @MainActor @Test func theMainContextAutosavesOnTheMainActor() async throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = container.mainContext
        #expect(context.autosaveEnabled)
        #expect(container.mainContext === context)
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
        #expect(context.hasChanges)
        for _ in 0..<200 where context.hasChanges { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!context.hasChanges)
        #expect(script.rows.count == 1)
    }

    @Test func contextsWithoutAutosaveKeepChangesPending() async throws {
        let (container, script) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled)
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
        try await Task.sleep(for: .milliseconds(50))
        #expect(context.hasChanges)
        #expect(script.rows.isEmpty)
    }

    @Test func eraseEmptiesEveryStore() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        try insertSampleTrips(into: ModelContext(container))
        try container.erase()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func aModelActorWorksOnItsOwnContext() async throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let importer = TripImporter(modelContainer: container)
        let identifier = try await importer.importTrip(named: "Kyoto")
        let trip = try #require(ModelContext(container).model(for: identifier) as? Trip)
        #expect(trip.name == "Kyoto")
    }
}

@ModelActor actor TripImporter {
    func importTrip(named name: String) throws -> PersistentIdentifier {
        let trip = Trip(name: name, destination: "Japan", startDate: epoch)
        modelContext.insert(trip)
        try modelContext.save()
        return trip.persistentModelID
    }
}
