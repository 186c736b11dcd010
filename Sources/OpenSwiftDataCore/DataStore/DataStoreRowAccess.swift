/// A store that hands a context its models as rows, and takes saves in the same form: the faster
/// way in, beside the snapshots of ``DataStore`` that every store speaks.
///
/// Through ``DataStore/fetch(_:)`` a context gets a result of snapshots and reads each one back into
/// a model property by property. A store that adopts this protocol answers a context's fetch with
/// ``DataStoreRow``s instead (each model's values already in its ``DataStoreRowLayout`` order), which
/// become the models' values with no snapshot in between; its saves are answered with the inserted models' permanent
/// identifiers in order, with no dictionary of remapped identifiers. `fetch` and `save` stay: code
/// that holds the store itself (`StoreServer`, for one) still calls them. The library's own stores
/// reach a context only this way or through `DataStore`, as any other store does.
///
/// A store of `DefaultSnapshot`s adopts it in a few lines:
///
/// ```swift
/// extension NotesStore: DataStoreRowAccess {
///     func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
///         let layout = DataStoreRowLayout(for: T.self)
///         return try snapshots(matching: descriptor).map {
///             DataStoreRow(persistentIdentifier: $0.persistentIdentifier, values: layout.values(of: $0))
///         }
///     }
///
///     func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
///         let result = try save(request)
///         return request.inserted.map { result.remappedIdentifiers[$0.persistentIdentifier] ?? $0.persistentIdentifier }
///     }
/// }
/// ```
///
/// A to-many relationship's identifiers may be left to be read when a model's relationship is
/// first read: one ``DataStoreDeferredToMany`` per relationship and fetch, a reference to it in
/// each row, and one query for the whole fetch only if something reads the relationship.
///
/// What `fetchRows` may throw is what `fetch` may: ``DataStoreError/preferInMemoryFilter`` and
/// ``DataStoreError/preferInMemorySort`` send the filter or the sort to the context, which then
/// fetches again without it.
public protocol DataStoreRowAccess: DataStore where Snapshot == DefaultSnapshot {
    /// The models of `T` that `descriptor` selects (filtered, sorted, offset and limited), as rows
    /// in `T`'s ``DataStoreRowLayout``; only models of `T`'s entity.
    func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow]

    /// Saves as ``DataStore/save(_:)`` does, and answers the permanent identifier of each of
    /// `request.inserted`, in that order: its own when the store kept it, the identifier of the
    /// stored model it was merged into on a uniqueness constraint, else the one the store minted.
    ///
    /// The snapshots a context hands over hold their values in row order already, so
    /// ``DataStoreRowLayout/values(of:)`` gives them back without a copy.
    func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier]

    /// Saves as ``saveRows(_:)`` does, and sets `historyToken` to the token of the history
    /// transaction the save recorded, for a store that keeps history. Defaults to
    /// ``saveRows(_:)``, leaving the token nil.
    func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier]

    /// Whether every attribute in the rows of ``fetchRows(_:editingState:)`` is exactly of its
    /// property's declared type, as the store guarantees by how it reads them: the context then
    /// takes them without looking at each. Defaults to `false`: the context checks each attribute
    /// and converts one of another type, as it does for snapshots, throwing
    /// ``PersistenceError`` `.invalidSnapshot` for one it cannot. Claim it only when the store
    /// reads every value as its declared type: a value of another type then stops the program
    /// when the model's property is read, as a property that was never set does.
    var rowsHoldDeclaredTypes: Bool { get }
}

extension DataStoreRowAccess {
    /// `false`: by default the context checks each value's type as it reads a row.
    public var rowsHoldDeclaredTypes: Bool { false }

    /// A save through ``DataStore/save(_:)``, answered as `saveRows(_:historyToken:)` answers:
    /// for stores whose row saves are their snapshot saves.
    package func saveRowsThroughSave(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        let result = try save(request)
        historyToken = result.historyToken
        let remap = result.remappedIdentifiers
        return request.inserted.map { remap[$0.persistentIdentifier] ?? $0.persistentIdentifier }
    }

    /// ``saveRows(_:)``, reporting no history token.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        try saveRows(request)
    }
}
