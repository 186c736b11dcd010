import Foundation

/// Configures an ``InMemoryStore``: a store that keeps everything in memory, private to its container.
public struct InMemoryStoreConfiguration: DataStoreConfiguration, Sendable {
    public typealias Store = InMemoryStore
    public var name: String
    public var schema: Schema?

    public init(name: String = "InMemoryStore", schema: Schema? = nil) {
        self.name = name
        self.schema = schema
    }
}

/// A complete `DataStore` that keeps snapshots in memory: for tests, and as the reference
/// implementation of the protocol (permanent identifiers, remapping, predicates, sorts and paging
/// evaluated on snapshots, batch delete, erase).
public final class InMemoryStore: DataStore, DataStoreBatching, RewritesRelationshipReferences {
    public typealias Configuration = InMemoryStoreConfiguration
    public typealias Snapshot = DefaultSnapshot

    public let configuration: InMemoryStoreConfiguration
    public let schema: Schema
    /// Unique per store instance, so identifiers from two in-memory stores never collide.
    public let identifier: String
    fileprivate let table = SnapshotTable()

    public init(_ configuration: InMemoryStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
        identifier = "\(configuration.name)-\(UUID().uuidString)"
    }

    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try table.fetch(request.descriptor))
    }

    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try table.fetch(request.descriptor).count
    }

    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        for snapshot in [request.inserted, request.updated].joined() {
            if let problem = StorableValues.problem(in: snapshot) { throw PersistenceError(.invalidSnapshot, "\(problem). Nothing was saved.") }
        }
        return try table.save(request, storeIdentifier: identifier)
    }

    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try table.delete(request.predicate)
    }

    public func erase() throws {
        table.erase()
    }
}

extension InMemoryStore: DataStoreRowAccess {
    /// The stored snapshots' own values: those a context saved are in row order already, so a
    /// fetch hands over their arrays without copying a value.
    public func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        DataStoreRowLayout(for: T.self).rows(of: try table.fetch(descriptor))
    }

    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        let remap = try save(request).remappedIdentifiers
        return request.inserted.map { remap[$0.persistentIdentifier] ?? $0.persistentIdentifier }
    }
}

extension InMemoryStore: QueryableDataStore {
    public func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try table.fetch(query)
    }

    public func deleteModels(matching query: DataStoreQuery) throws {
        try table.delete(query)
    }
}
