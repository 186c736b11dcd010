import Foundation
import OpenSwiftData

/// The WWDC24 sample's JSON store, as the session shows it (only the result initializer spelled as
/// it shipped): it rereads the file on every call and leaves filtering and sorting to the context.
/// `dropsUpdates` turns it into a broken store, to show the kit catches a bug.
final class SampleJSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = SampleJSONStore

    var name: String
    var schema: Schema?
    var fileURL: URL
    let dropsUpdates: Bool

    init(name: String, schema: Schema? = nil, fileURL: URL, dropsUpdates: Bool = false) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
        self.dropsUpdates = dropsUpdates
    }

    static func == (lhs: SampleJSONStoreConfiguration, rhs: SampleJSONStoreConfiguration) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

final class SampleJSONStore: DataStore {
    typealias Configuration = SampleJSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    var configuration: SampleJSONStoreConfiguration
    var name: String
    var schema: Schema
    var identifier: String

    init(_ configuration: SampleJSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema!
        self.identifier = configuration.fileURL.lastPathComponent
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remappedIdentifiers = [PersistentIdentifier: PersistentIdentifier]()
        var serialized = try read()
        for snapshot in request.inserted {
            let permanentIdentifier = try PersistentIdentifier.identifier(for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            remappedIdentifiers[snapshot.persistentIdentifier] = permanentIdentifier
        }
        for snapshot in request.inserted {
            let permanentIdentifier = remappedIdentifiers[snapshot.persistentIdentifier]!
            serialized[permanentIdentifier] = snapshot.copy(persistentIdentifier: permanentIdentifier, remappedIdentifiers: remappedIdentifiers)
        }
        for snapshot in request.updated where !configuration.dropsUpdates {
            serialized[snapshot.persistentIdentifier] = snapshot.copy(persistentIdentifier: snapshot.persistentIdentifier, remappedIdentifiers: remappedIdentifiers)
        }
        for snapshot in request.deleted {
            serialized[snapshot.persistentIdentifier] = nil
        }
        try write(serialized)
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remappedIdentifiers)
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let objects = try read()
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(objects.values), relatedSnapshots: objects)
    }

    private func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.fileURL.path) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let snapshots = try decoder.decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
        return Dictionary(snapshots.map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { _, last in last })
    }

    private func write(_ snapshots: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try encoder.encode(Array(snapshots.values)).write(to: configuration.fileURL)
    }
}
