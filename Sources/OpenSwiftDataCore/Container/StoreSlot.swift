import Foundation

/// One store of a container, type-erased: every call opens the store's concrete type once and
/// converts its snapshots to value slots, so the context never deals with associated types.
/// A store that adopts ``DataStoreRowAccess`` is spoken to in rows instead, with no snapshot per model.
/// Calls are serialised per store, because a custom store (like the seeds') need not be thread-safe.
package final class StoreSlot: @unchecked Sendable {
    /// A fetched model: its identifier and the values of its properties, slot by slot.
    package typealias Row = DataStoreRow

    package struct FetchedRows {
        package var rows: [Row]
        package var related: [Row]
    }

    package struct SaveOutcome {
        /// The permanent identifier of each inserted model, in the order they were handed over
        /// (its own identifier when the store kept it).
        package let insertedIdentifiers: [PersistentIdentifier]
        /// Whether any inserted model's identifier changed.
        package let remapped: Bool
        package let reregistered: [Row]
        /// The token of the history transaction the save recorded, when the store reported one.
        package var historyToken: (any HistoryToken)?
    }

    package let store: any DataStore
    /// The store, when it adopts the row protocol: looked up once, not per call.
    private let rowStore: (any DataStoreRowAccess)?
    package let configuration: any DataStoreConfiguration
    package let entityNames: Set<String>
    /// The schema the store serves: entity names in its snapshots resolve to its model types.
    let schema: Schema
    let lock = NSRecursiveLock()
    /// How many fetch requests reached the store: tests use it to prove a load costs a constant
    /// number of queries (no N+1).
    package private(set) var fetchRequestCount = 0
    private let instruments: StoreInstruments

    init(_ store: any DataStore, configuration: any DataStoreConfiguration) {
        self.store = store
        rowStore = store as? any DataStoreRowAccess
        self.configuration = configuration
        instruments = StoreInstruments(storeName: configuration.name)
        schema = configuration.schema ?? store.schema
        entityNames = Set(schema.entities.map(\.name))
    }

    /// Runs one call to the store, measured, with entity names resolving to the store's schema:
    /// another version's model types of the same names may be registered meanwhile (a migration).
    private func measure<Result>(_ operation: StoreInstruments.Operation, entity: @autoclosure () -> String,
                                 _ body: () throws -> Result) throws -> Result {
        try EntityRegistry.resolving(in: schema) { try instruments.measure(operation, entity: entity(), body) }
    }

    package var identifier: String { lock.withLock { store.identifier } }

    /// The storages of models whose entity this store holds, in order. Models come in runs of
    /// one type: the entity is looked up once per run, not per model.
    func own(_ storages: [BackingStorage]) -> [BackingStorage] {
        var checked: ModelTypeInfo?
        for storage in storages where storage.info !== checked {
            guard entityNames.contains(storage.info.entityName) else {
                return storages.filter { entityNames.contains($0.info.entityName) }
            }
            checked = storage.info
        }
        // Usually all of them (one store): the array itself, no copy.
        return storages
    }

    /// Whether the store rewrites references to models inserted in the same save itself.
    package var rewritesReferences: Bool { store is any DataStoreRemapping }

    /// The rows the store answers the descriptor with. `narrowing` gets them first, to drop
    /// those the context has no use for (a filter the store sent back): a row store's values are
    /// then read into a model's slot form for the kept rows alone.
    package func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState,
                                           narrowing: ([Row]) -> [Row] = { $0 }) throws -> FetchedRows {
        try measure(.fetch, entity: Schema.entityName(for: T.self)) { try rows(descriptor, editingState: editingState, narrowing: narrowing) }
    }

    private func rows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState,
                                          narrowing: ([Row]) -> [Row]) throws -> FetchedRows {
        if let rowStore {
            var rows = try lock.withLock {
                fetchRequestCount += 1
                return try rowStore.fetchRows(descriptor, editingState: editingState)
            }
            let info = ModelTypeInfo.of(T.self)
            try checkWidths(of: rows, info: info)
            rows = narrowing(rows)
            try makeContextReady(&rows, info: info, attributesTyped: rowStore.rowsHoldDeclaredTypes)
            return FetchedRows(rows: rows, related: [])
        }
        func open<S: DataStore>(_ store: S) throws -> FetchedRows {
            let result = try fetchResult(of: store, descriptor, editingState)
            let info = ModelTypeInfo.of(T.self)
            // Loops rather than `compactMap`, which runs unspecialized here.
            var rows: [Row] = []
            rows.reserveCapacity(result.fetchedSnapshots.count)
            for snapshot in result.fetchedSnapshots {
                // Stores like the seeds' return every snapshot they hold; only this entity's are results.
                guard snapshot.persistentIdentifier.entityName == info.entityName else { continue }
                rows.append(Row(identifier: snapshot.persistentIdentifier, values: try SnapshotReader.slotValues(of: snapshot, info: info)))
            }
            rows = narrowing(rows)
            guard !result.relatedSnapshots.isEmpty else { return FetchedRows(rows: rows, related: []) }
            let related = try result.relatedSnapshots.values.compactMap { snapshot -> Row? in
                guard let type = EntityRegistry.modelType(named: snapshot.persistentIdentifier.entityName) else { return nil }
                return Row(identifier: snapshot.persistentIdentifier,
                           values: try SnapshotReader.slotValues(of: snapshot, info: ModelTypeInfo.of(type)))
            }
            return FetchedRows(rows: rows, related: related)
        }
        return try open(store)
    }

    /// Refuses a fetch whose rows do not hold one value per persisted property.
    private func checkWidths(of rows: [Row], info: ModelTypeInfo) throws {
        let count = info.properties.count
        for row in rows where row.values.count != count {
            throw PersistenceError(.invalidSnapshot, "The store '\(configuration.name)' answered a \(info.entityName) row with \(row.values.count) values for \(count) persisted properties; a row holds one value per property, in DataStoreRowLayout's order.")
        }
    }

    /// A row store's rows as a model's slots hold them, in place (each row's array is the row
    /// store's own, so it is written only where a value changes). Rows with nothing to read (typed
    /// attributes, no relationship) are left as they are.
    private func makeContextReady(_ rows: inout [Row], info: ModelTypeInfo, attributesTyped: Bool) throws {
        guard !attributesTyped || !info.relationshipSlots.isEmpty else { return }
        for index in rows.indices {
            try SnapshotReader.readRow(&rows[index].values, info: info, attributesTyped: attributesTyped)
        }
    }

    /// One fetch request to the store, under the slot's lock.
    private func fetchResult<S: DataStore, T: PersistentModel>(of store: S, _ descriptor: FetchDescriptor<T>, _ editingState: EditingState) throws
        -> DataStoreFetchResult<T, S.Snapshot> {
        try lock.withLock {
            fetchRequestCount += 1
            return try store.fetch(DataStoreFetchRequest(editingState: editingState, descriptor: descriptor))
        }
    }

    package func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> Int {
        func open<S: DataStore>(_ store: S) throws -> Int {
            try lock.withLock { try store.fetchCount(DataStoreFetchRequest(editingState: editingState, descriptor: descriptor)) }
        }
        return try measure(.fetch, entity: Schema.entityName(for: T.self)) { try open(store) }
    }

    package func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [PersistentIdentifier] {
        func open<S: DataStore>(_ store: S) throws -> [PersistentIdentifier] {
            try lock.withLock { try store.fetchIdentifiers(DataStoreFetchRequest(editingState: editingState, descriptor: descriptor)) }
        }
        return try measure(.fetch, entity: Schema.entityName(for: T.self)) { try open(store) }
    }

    package func save(inserted: [BackingStorage], updated: [BackingStorage], deleted: [BackingStorage],
                      editingState: EditingState) throws -> SaveOutcome {
        func open<S: DataStore>(_ store: S) throws -> SaveOutcome {
            var related: [PersistentIdentifier: any BackingData] = [:]
            func snapshots(_ storages: [BackingStorage]) -> [S.Snapshot] {
                storages.map { S.Snapshot(from: $0.asBackingData, relatedBackingDatas: &related) }
            }
            func request() -> DataStoreSaveChangesRequest<S.Snapshot> {
                DataStoreSaveChangesRequest(inserted: snapshots(inserted), updated: snapshots(updated),
                                            deleted: snapshots(deleted), editingState: editingState)
            }
            let request = request()
            let result = try lock.withLock { try store.save(request) }
            let reregistered = try result.snapshotsToReregister.compactMap { identifier, snapshot -> Row? in
                guard let type = EntityRegistry.modelType(named: identifier.entityName) else { return nil }
                return Row(identifier: identifier, values: try SnapshotReader.slotValues(of: snapshot, info: ModelTypeInfo.of(type)))
            }
            let remap = result.remappedIdentifiers
            let permanents = inserted.map { remap[$0.persistentModelIdentifier] ?? $0.persistentModelIdentifier }
            return SaveOutcome(insertedIdentifiers: permanents, remapped: !remap.isEmpty, reregistered: reregistered,
                               historyToken: result.historyToken)
        }
        return try measure(.save, entity: Set((inserted + updated + deleted).map(\.info.entityName)).sorted().joined(separator: ",")) {
            if let rowStore {
                return try saveRows(rowStore, inserted: inserted, updated: updated, deleted: deleted, editingState: editingState)
            }
            return try open(store)
        }
    }

    /// A row store's save. Its snapshots come straight from the storages: the generic path's
    /// `map` over `S` and its cast of each storage to `any BackingData` and back cost more than
    /// the snapshot itself. The request is built inside the call, so it is gone once it returns.
    private func saveRows(_ rowStore: any DataStoreRowAccess, inserted: [BackingStorage], updated: [BackingStorage],
                          deleted: [BackingStorage], editingState: EditingState) throws -> SaveOutcome {
        var token: (any HistoryToken)?
        let permanents = try lock.withLock {
            try rowStore.saveRows(DataStoreSaveChangesRequest(inserted: rowSnapshots(inserted), updated: rowSnapshots(updated),
                                                              deleted: rowSnapshots(deleted), editingState: editingState),
                                  historyToken: &token)
        }
        guard permanents.count == inserted.count else {
            throw PersistenceError(.invalidIdentifier, "The store '\(configuration.name)' answered \(permanents.count) identifiers for the \(inserted.count) inserted models of a save; saveRows answers one per inserted model, in order.")
        }
        let remapped = zip(inserted, permanents).contains { $0.persistentModelIdentifier != $1 }
        return SaveOutcome(insertedIdentifiers: permanents, remapped: remapped, reregistered: [], historyToken: token)
    }

    private func rowSnapshots(_ storages: [BackingStorage]) -> [DefaultSnapshot] {
        var snapshots: [DefaultSnapshot] = []
        snapshots.reserveCapacity(storages.count)
        for storage in storages { snapshots.append(DefaultSnapshot(storage: storage)) }
        return snapshots
    }

    /// Runs a batch delete in the store; `false` when the store does not adopt ``DataStoreBatching``.
    package func batchDelete<T: PersistentModel>(_ predicate: Predicate<T>?, includeSubclasses: Bool,
                                                 editingState: EditingState) throws -> Bool {
        guard let batching = store as? any DataStoreBatching else { return false }
        func open<S: DataStoreBatching>(_ store: S) throws {
            try lock.withLock {
                try store.delete(DataStoreBatchDeleteRequest<T>(editingState: editingState, predicate: predicate,
                                                                includeSubclasses: includeSubclasses))
            }
        }
        try EntityRegistry.resolving(in: schema) { try open(batching) }
        return true
    }

    package func initializeState(for editingState: EditingState) {
        lock.withLock { store.initializeState(for: editingState) }
    }

    package func invalidateState(for editingState: EditingState) {
        lock.withLock { store.invalidateState(for: editingState) }
    }

    package func erase() throws {
        try lock.withLock { try store.erase() }
    }
}
