import Foundation

/// A store that runs a ``DataStoreQuery`` itself, naming the entity by name instead of by model
/// type: what a server needs to answer a query that arrived over the wire, where no `Predicate`
/// exists any more. The default store, ``InMemoryStore`` and `JSONStore` adopt it; `StoreServer`
/// serves any store that does.
///
/// Each requirement throws `DataStoreError.preferInMemoryFilter` (or `…Sort`) for a query the store
/// cannot run exactly, as `fetch` does; the caller then filters or sorts itself.
public protocol QueryableDataStore: DataStore where Snapshot == DefaultSnapshot {
    /// The snapshots matching the query, in its order.
    func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot]
    /// How many snapshots match the query's filter, limit and offset.
    func fetchCount(_ query: DataStoreQuery) throws -> Int
    /// The identifiers of the matching snapshots, in the query's order.
    func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier]
    /// Deletes every model matching the query's filter, in one step.
    func deleteModels(matching query: DataStoreQuery) throws
    /// Deletes every model matching the query's filter, in one step, for the context `editingState`
    /// describes: a store keeping history records the delete under its `author`, as it records a
    /// save's. The default runs ``deleteModels(matching:)``, whose history names no author.
    func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws
    /// Whether the store's calls may run at once from several threads. A server serialises the
    /// calls of a store that says no (the default); one that waits on the network for each call
    /// (a database server's) says yes, so one slow call does not hold up the others.
    var allowsConcurrentCalls: Bool { get }
}

extension QueryableDataStore {
    /// No: a store is called one call at a time unless it says otherwise.
    public var allowsConcurrentCalls: Bool { false }

    /// Deletes the matching models with ``deleteModels(matching:)``; the history names no author.
    public func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        try deleteModels(matching: query)
    }

    /// The number of matching snapshots, by fetching them; stores that can count cheaper do.
    public func fetchCount(_ query: DataStoreQuery) throws -> Int {
        try fetchSnapshots(query).count
    }

    /// The identifiers of the matching snapshots, by fetching them.
    public func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        try fetchSnapshots(query).map(\.persistentIdentifier)
    }
}
