import Foundation

/// The store behind ``ModelConfiguration``. In this release it serves in-memory configurations
/// (`ModelConfiguration(isStoredInMemoryOnly: true)`), each private to its container; the SQLite
/// file store is not available yet, and a file configuration throws a ``PersistenceError`` that
/// says so.
public final class DefaultStore: DataStore, DataStoreBatching {
    public typealias Configuration = ModelConfiguration
    public typealias Snapshot = DefaultSnapshot

    public final let name: String
    public final let schema: Schema
    public final let configuration: ModelConfiguration
    public final var identifier: String { storeIdentifier }
    private let storeIdentifier: String
    private let table = SnapshotTable()

    public convenience init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        guard configuration.isStoredInMemoryOnly else {
            throw PersistenceError(.unavailable, """
                The SQLite default store is not available in this build, so \(configuration.url.path) cannot be opened. \
                Use ModelConfiguration(isStoredInMemoryOnly: true), or a custom DataStoreConfiguration.
                """)
        }
        self.init(configuration: configuration)
    }

    private init(configuration: ModelConfiguration) {
        self.configuration = configuration
        name = configuration.name
        schema = configuration.schema ?? Schema()
        storeIdentifier = "\(configuration.name)-\(UUID().uuidString)"
    }

    public final func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try table.fetch(request.descriptor))
    }

    public final func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try table.fetch(request.descriptor).count
    }

    public final func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try table.fetch(request.descriptor).map(\.persistentIdentifier)
    }

    public final func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        guard configuration.allowsSave else {
            throw PersistenceError(.readOnly, "The store '\(name)' was configured with allowsSave: false; create its ModelConfiguration with allowsSave: true to save.")
        }
        return try table.save(request, storeIdentifier: storeIdentifier)
    }

    public final func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        guard configuration.allowsSave else {
            throw PersistenceError(.readOnly, "The store '\(name)' was configured with allowsSave: false; it cannot delete.")
        }
        try table.delete(request.predicate)
    }

    public final func erase() throws {
        table.erase()
    }

    public final func initializeState(for editingState: EditingState) {}
    public final func invalidateState(for editingState: EditingState) {}

    public final func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot] {
        [:]
    }
}
