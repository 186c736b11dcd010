import Foundation
import SwiftData
import Testing

/// iOS 27's additions, used as an app uses them: opaque `.codable` attributes, and the mapping
/// between a container's configuration names and its stores' identifiers.
@Model final class Parcel {
    struct Dimensions: Codable, Equatable {
        var width: Double
        var height: Double
    }

    var label: String
    @Attribute(.codable) var dimensions: Dimensions

    init(label: String, dimensions: Dimensions) {
        self.label = label
        self.dimensions = dimensions
    }
}

@Model final class Courier {
    var name: String

    init(name: String) {
        self.name = name
    }
}

@Suite struct StoreIdentifierAndCodableTests {
    private static func scratchURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("parcels-\(UUID().uuidString).store")
    }

    @Test func codableOptionMarksTheAttributeCodable() throws {
        let entity = try #require(Schema([Parcel.self]).entitiesByName["Parcel"])
        #expect(entity.attributesByName["dimensions"]?.isCodable == true)
        #expect(entity.attributesByName["label"]?.isCodable == false)
        #expect(Schema.Attribute(.codable, .unique).isCodable)
    }

    @Test func codableAttributeRoundTripsAndStaysOutOfStoreQueries() throws {
        let url = Self.scratchURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = ModelContext(try ModelContainer(for: Parcel.self, configurations: ModelConfiguration(url: url)))
        writer.insert(Parcel(label: "Books", dimensions: .init(width: 30, height: 20)))
        writer.insert(Parcel(label: "Lamp", dimensions: .init(width: 15, height: 60)))
        try writer.save()

        let reader = ModelContext(try ModelContainer(for: Parcel.self, configurations: ModelConfiguration(url: url)))
        let parcels = try reader.fetch(FetchDescriptor<Parcel>(sortBy: [SortDescriptor(\.label)]))
        #expect(parcels.map(\.dimensions) == [.init(width: 30, height: 20), .init(width: 15, height: 60)])
        // The store does not look into the opaque value; the context filters by it in memory.
        let tall = try reader.fetch(FetchDescriptor<Parcel>(predicate: #Predicate { $0.dimensions.height > 50 }))
        #expect(tall.map(\.label) == ["Lamp"])
    }

    @Test func storeIdentifiersMapToConfigurationNamesBothWays() throws {
        let url = Self.scratchURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let container = try ModelContainer(
            for: Schema([Parcel.self, Courier.self]),
            configurations: ModelConfiguration("Parcels", schema: Schema([Parcel.self]), url: url),
            ModelConfiguration("Couriers", schema: Schema([Courier.self]), isStoredInMemoryOnly: true)
        )
        let context = ModelContext(container)
        let parcel = Parcel(label: "Books", dimensions: .init(width: 30, height: 20))
        let courier = Courier(name: "Ada")
        context.insert(parcel)
        context.insert(courier)
        try context.save()

        let parcels = try #require(container.storeIdentifier(forConfigurationNamed: "Parcels"))
        let couriers = try #require(container.storeIdentifier(forConfigurationNamed: "Couriers"))
        #expect(parcel.persistentModelID.storeIdentifier == parcels)
        #expect(courier.persistentModelID.storeIdentifier == couriers)
        #expect(parcels != couriers)
        #expect(container.configurationName(forStoreIdentifier: parcels) == "Parcels")
        #expect(container.configurationName(forStoreIdentifier: couriers) == "Couriers")
        #expect(container.storeIdentifier(forConfigurationNamed: "Letters") == nil)
        #expect(container.configurationName(forStoreIdentifier: "no-such-store") == nil)
    }
}
