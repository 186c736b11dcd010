import Foundation

/// A persistence backend. Contexts talk to it only through snapshots and the request and result
/// types of this protocol; the library's own stores get no other access.
///
/// Only `configuration`, `init`, `fetch` and `save` must be written: `identifier` defaults to the
/// configuration's name, `schema` to the configuration's schema, and the other requirements have
/// the default implementations documented on them.
public protocol DataStore: AnyObject {
    /// The configuration type that describes and opens this store.
    associatedtype Configuration: DataStoreConfiguration where Self == Configuration.Store
    /// The snapshot type the store reads and writes.
    associatedtype Snapshot: DataStoreSnapshot
    /// The store's identifier, part of the permanent identifiers it mints.
    var identifier: String { get }
    /// The models the store holds.
    var schema: Schema { get }
    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// Opens the store a configuration describes, migrating it with the plan if the store needs
    /// and supports migration.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws
    /// Deletes everything the store holds.
    func erase() throws
    /// The snapshots of the models matching the request's descriptor.
    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot> where T: PersistentModel
    /// The number of models matching the request's descriptor.
    func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel
    /// The identifiers of the models matching the request's descriptor, in order.
    func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel
    /// Applies one context save: inserts, updates and deletes, all or nothing, returning the
    /// inserted models' permanent identifiers.
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>
    /// Called when a context starts using the store, for stores that keep state per context.
    func initializeState(for editingState: EditingState)
    /// Called when a context stops using the store, for stores that keep state per context.
    func invalidateState(for editingState: EditingState)
    /// Snapshots the store already holds for these identifiers, so the context need not fetch them.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws -> [PersistentIdentifier: Snapshot]
}

extension DataStore {
    /// The configuration's name.
    public var identifier: String { configuration.name }

    /// The configuration's schema (the container sets it before creating the store).
    public var schema: Schema { configuration.schema ?? Schema() }

    /// Counts the snapshots of `T` that `fetch` returns (stores like the WWDC sample return every
    /// entity's). A `preferInMemoryFilter`/`preferInMemorySort` thrown by `fetch` propagates, and
    /// the context then counts in memory.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetchIdentifiers(request).count
    }

    /// The identifiers of the snapshots of `T` that `fetch` returns, in order.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        let entityName = Schema.entityName(for: T.self)
        return try fetch(request).fetchedSnapshots.map(\.persistentIdentifier).filter { $0.entityName == entityName }
    }

    /// Refuses: a store that can erase itself implements this.
    public func erase() throws {
        throw DataStoreError.unsupportedFeature
    }

    /// Does nothing: a store that keeps per-context state implements this.
    public func initializeState(for editingState: EditingState) {}

    /// Does nothing: a store that keeps per-context state implements this.
    public func invalidateState(for editingState: EditingState) {}

    /// No cache: returns no snapshots.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws -> [PersistentIdentifier: Snapshot] {
        [:]
    }
}

/// A store that rewrites, in the same save, every reference to a model inserted in it: each
/// inserted and updated snapshot is stored through
/// `copy(persistentIdentifier:remappedIdentifiers:)` with the identifiers the save minted.
///
/// The WWDC24 sample store copies inserted snapshots without `remappedIdentifiers`, so it keeps
/// the temporary identifiers of models inserted together; for a store that does not adopt this
/// protocol the context therefore saves those models once more, as updates, with every identifier
/// permanent. Adopting it promises that second save is not needed, which spares building and
/// writing a snapshot of every model that refers to a new one. The conformance kit's graph checks
/// fail for a store that adopts it and keeps temporary identifiers.
public protocol DataStoreRemapping: DataStore {}

/// A store that can delete the models matching a predicate itself (`ModelContext.delete(model:where:)`).
public protocol DataStoreBatching: DataStore {
    /// Deletes every model matching the request's predicate, in the store itself.
    func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel
}

/// Errors a store throws to ask the context for help, or to refuse.
public enum DataStoreError: Error, Equatable, Hashable {
    /// The store cannot do what was asked (e.g. a read-only store asked to save).
    case unsupportedFeature
    /// The store cannot evaluate the predicate: the context fetches without it and filters itself.
    case preferInMemoryFilter
    /// The store cannot sort: the context fetches unsorted and sorts itself.
    case preferInMemorySort
    /// The store rejects the predicate.
    case invalidPredicate
}
