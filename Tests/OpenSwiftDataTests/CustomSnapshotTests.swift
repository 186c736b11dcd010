import Foundation
import OpenSwiftData
import Testing

@Model final class Pin {
    var label: String
    var place: Coordinates
    var tags: [String]
    var note: String?

    init(label: String, place: Coordinates, tags: [String], note: String? = nil) {
        self.label = label
        self.place = place
        self.tags = tags
        self.note = note
    }
}

/// A hand-written snapshot, as a custom store author would write one: it reads the model through
/// `getValue(forKey:)` and encodes `place` and `tags` through nested containers of its own.
struct PinSnapshot: DataStoreSnapshot {
    let persistentIdentifier: PersistentIdentifier
    let label: String
    let latitude: Double
    let longitude: Double
    let tags: [String]
    let note: String?

    private enum PlaceKeys: String, CodingKey { case latitude, longitude }

    init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        let pin = backingData as! any BackingData<Pin>
        persistentIdentifier = pin.persistentModelID!
        label = pin.getValue(forKey: \.label)
        let place = pin.getValue(forKey: \.place)
        latitude = place.latitude
        longitude = place.longitude
        tags = pin.getValue(forKey: \.tags)
        note = pin.getValue(forKey: \.note)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        label = try container.decode(String.self, forKey: .modeledProperty("label"))
        let place = try container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .modeledProperty("place"))
        latitude = try place.decode(Double.self, forKey: .latitude)
        longitude = try place.decode(Double.self, forKey: .longitude)
        var tagList = try container.nestedUnkeyedContainer(forKey: .modeledProperty("tags"))
        var tags: [String] = []
        while !tagList.isAtEnd { tags.append(try tagList.decode(String.self)) }
        self.tags = tags
        note = try container.decodeIfPresent(String.self, forKey: .modeledProperty("note"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        try container.encode(label, forKey: .modeledProperty("label"))
        var place = container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .modeledProperty("place"))
        try place.encode(latitude, forKey: .latitude)
        try place.encode(longitude, forKey: .longitude)
        var tagList = container.nestedUnkeyedContainer(forKey: .modeledProperty("tags"))
        for tag in tags { try tagList.encode(tag) }
        try container.encode(note, forKey: .modeledProperty("note"))
    }

    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?) -> PinSnapshot {
        self
    }
}

final class PinStoreConfiguration: DataStoreConfiguration {
    typealias Store = PinStore
    var name = "pins"
    var schema: Schema?
    static func == (lhs: PinStoreConfiguration, rhs: PinStoreConfiguration) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

final class PinStore: DataStore {
    typealias Snapshot = PinSnapshot
    let configuration: PinStoreConfiguration
    private var rows: [PinSnapshot] = []

    init(_ configuration: PinStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, PinSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: rows)
    }

    func save(_ request: DataStoreSaveChangesRequest<PinSnapshot>) throws -> DataStoreSaveChangesResult<PinSnapshot> {
        rows += request.inserted
        return DataStoreSaveChangesResult(for: identifier)
    }
}

@Suite struct CustomSnapshotTests {
    @Test func aSnapshotThatEncodesThroughNestedContainersIsReadBackIntoModels() throws {
        let container = try ModelContainer(for: Schema([Pin.self]), configurations: [PinStoreConfiguration()])
        let context = ModelContext(container)
        context.insert(Pin(label: "Louvre", place: Coordinates(latitude: 48.86, longitude: 2.34), tags: ["art", "paris"]))
        try context.save()
        let reader = ModelContext(container)
        let pins = try reader.fetch(FetchDescriptor<Pin>(predicate: #Predicate { $0.tags.contains("art") }))
        #expect(pins.map(\.label) == ["Louvre"])
        #expect(pins.first?.place == Coordinates(latitude: 48.86, longitude: 2.34))
        #expect(pins.first?.tags == ["art", "paris"])
        #expect(pins.first?.note == nil)
    }
}
