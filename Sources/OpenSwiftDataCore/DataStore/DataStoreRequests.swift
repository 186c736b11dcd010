import Foundation

/// A fetch a context asks of a store.
public struct DataStoreFetchRequest<T>: Sendable where T: PersistentModel {
    /// The context making the request.
    public let editingState: EditingState
    /// What to fetch: the predicate, sort order, offset and limit.
    public let descriptor: FetchDescriptor<T>

    package init(editingState: EditingState, descriptor: FetchDescriptor<T>) {
        self.editingState = editingState
        self.descriptor = descriptor
    }
}

/// What a store returns for a fetch.
public struct DataStoreFetchResult<ModelType, SnapshotType>: Sendable
    where ModelType: PersistentModel, SnapshotType: DataStoreSnapshot {
    /// The descriptor the store answered.
    public let descriptor: FetchDescriptor<ModelType>
    /// The matching models, in the order the caller should see them.
    public let fetchedSnapshots: [SnapshotType]
    /// Snapshots of other models (relationship targets, prefetched rows), keyed by identifier.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// Creates a fetch result of the matching snapshots and any related ones.
    public init(descriptor: FetchDescriptor<ModelType>, fetchedSnapshots: [SnapshotType],
                relatedSnapshots: [PersistentIdentifier: SnapshotType] = [:]) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}

/// The changes of one context save, as snapshots. Inserted snapshots carry temporary identifiers and
/// may refer to each other by them.
public struct DataStoreSaveChangesRequest<SnapshotType>: Sendable where SnapshotType: DataStoreSnapshot {
    /// Snapshots of the models inserted since the last save, with temporary identifiers.
    public let inserted: [SnapshotType]
    /// Snapshots of the models changed since the last save.
    public let updated: [SnapshotType]
    /// Snapshots of the models deleted since the last save.
    public let deleted: [SnapshotType]
    /// The context saving.
    public let editingState: EditingState

    package init(inserted: [SnapshotType], updated: [SnapshotType], deleted: [SnapshotType], editingState: EditingState) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.editingState = editingState
    }
}

/// What a store returns for a save.
public final class DataStoreSaveChangesResult<T>: Sendable where T: DataStoreSnapshot {
    /// Temporary → permanent identifier of each inserted model. A store that keeps the temporary
    /// identifiers may leave this empty.
    public final let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// The identifier of the store that saved the changes.
    public final let storeIdentifier: String
    /// Store-side values to apply to the context's models, keyed by (permanent) identifier.
    public final let snapshotsToReregister: [PersistentIdentifier: T]
    /// The token of the history transaction the save recorded, for a store that keeps history;
    /// the context posts it in `didSave` under ``ModelContext/NotificationKey/historyTokens``.
    public final let historyToken: (any HistoryToken)?

    /// Creates a save result with the inserted models' permanent identifiers and any store-side
    /// values to apply.
    public init(for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
                snapshotsToReregister: [PersistentIdentifier: T] = [:]) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
        historyToken = nil
    }

    /// Creates a save result that also carries the token of the history transaction the save
    /// recorded.
    public init(for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
                snapshotsToReregister: [PersistentIdentifier: T] = [:], historyToken: (any HistoryToken)?) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
        self.historyToken = historyToken
    }

    /// The form the WWDC24 sample code uses (an API spelling from before SwiftData shipped).
    /// Deleted identifiers need no reporting: the context already knows what it deleted.
    @available(*, deprecated, renamed: "init(for:remappedIdentifiers:snapshotsToReregister:)")
    public convenience init(for storeIdentifier: String,
                            remappedPersistentIdentifiers: [PersistentIdentifier: PersistentIdentifier],
                            deletedIdentifiers: [PersistentIdentifier]) {
        self.init(for: storeIdentifier, remappedIdentifiers: remappedPersistentIdentifiers)
    }
}

/// A batch delete a context asks of a ``DataStoreBatching`` store.
public struct DataStoreBatchDeleteRequest<T>: Sendable where T: PersistentModel {
    /// The context making the request.
    public let editingState: EditingState
    /// Which models to delete; `nil` deletes every model of the entity.
    public let predicate: Predicate<T>?
    /// Whether models of subclasses are deleted too.
    public let includeSubclasses: Bool

    package init(editingState: EditingState, predicate: Predicate<T>?, includeSubclasses: Bool) {
        self.editingState = editingState
        self.predicate = predicate
        self.includeSubclasses = includeSubclasses
    }
}
