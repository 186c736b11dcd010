import Foundation

/// Configures an ``InMemoryStore``: a store that keeps everything in memory, private to its container.
public struct InMemoryStoreConfiguration: DataStoreConfiguration, Sendable {
    /// The store this configuration opens.
    public typealias Store = InMemoryStore
    /// The configuration's name, unique in its container.
    public var name: String
    /// The models this store holds; `nil` for the container's whole schema.
    public var schema: Schema?

    /// Creates a configuration of an in-memory store.
    public init(name: String = "InMemoryStore", schema: Schema? = nil) {
        self.name = name
        self.schema = schema
    }
}

/// A complete `DataStore` that keeps snapshots in memory: for tests, and as the reference
/// implementation of the protocol (permanent identifiers, remapping, predicates, sorts and paging
/// evaluated on snapshots, batch delete, erase).
public final class InMemoryStore: DataStore, DataStoreBatching, DataStoreRemapping {
    /// The configuration this store is opened with.
    public typealias Configuration = InMemoryStoreConfiguration
    /// The snapshots this store reads and writes.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: InMemoryStoreConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// Unique per store instance, so identifiers from two in-memory stores never collide.
    public let identifier: String
    fileprivate let table = SnapshotTable()
    let history = HistoryLog()

    /// Opens an empty store; the migration plan is not used, since nothing persists.
    public init(_ configuration: InMemoryStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
        identifier = "\(configuration.name)-\(UUID().uuidString)"
        // Nothing outlives the store, so a plan has nothing to migrate; it is still checked.
        _ = try SchemaMigrator(schema: schema, plan: migrationPlan, storeName: configuration.name)
    }

    /// The snapshots matching the request's descriptor, filtered, sorted and paged in memory.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try table.fetch(request.descriptor))
    }

    /// The number of snapshots matching the request's descriptor.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try table.fetch(request.descriptor).count
    }

    /// Inserts, updates and deletes the request's snapshots, giving inserted models permanent
    /// identifiers.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        for snapshot in [request.inserted, request.updated].joined() {
            if let problem = StorableValues.problem(in: snapshot) { throw PersistenceError(.invalidSnapshot, "\(problem). Nothing was saved.") }
        }
        let result = try table.save(request, storeIdentifier: identifier)
        let transaction = history.record(request, remapped: result.remappedIdentifiers)
        return DataStoreSaveChangesResult(for: result.storeIdentifier, remappedIdentifiers: result.remappedIdentifiers,
                                          snapshotsToReregister: result.snapshotsToReregister,
                                          historyToken: DefaultHistoryToken(storeIdentifier: identifier, transactionIdentifier: transaction))
    }

    /// Deletes every model matching the request's predicate.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        let doomed = try table.fetch(FetchDescriptor<T>(predicate: request.predicate))
        try table.delete(request.predicate)
        guard !doomed.isEmpty else { return }
        history.record(DataStoreSaveChangesRequest(inserted: [], updated: [], deleted: doomed, editingState: request.editingState), remapped: [:])
    }

    /// Deletes every model in the store.
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

    /// Saves the request's snapshots and returns the permanent identifiers of the inserted models,
    /// in order.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        var token: (any HistoryToken)?
        return try saveRows(request, historyToken: &token)
    }

    /// ``saveRows(_:)``, answering the token of the history transaction the save recorded.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        try saveRowsThroughSave(request, historyToken: &historyToken)
    }
}

extension InMemoryStore: QueryableDataStore {
    /// The snapshots matching a store-neutral query.
    public func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try table.fetch(query)
    }

    /// Deletes every model matching a store-neutral query.
    public func deleteModels(matching query: DataStoreQuery) throws {
        try deleteModels(matching: query, editingState: EditingState())
    }

    /// ``deleteModels(matching:)``, the history naming the context's author.
    public func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        let doomed = try table.fetch(DataStoreQuery(entityName: query.entityName, filter: query.filter))
        try table.delete(query)
        guard !doomed.isEmpty else { return }
        history.record(DataStoreSaveChangesRequest(inserted: [], updated: [], deleted: doomed, editingState: editingState), remapped: [:])
    }
}
