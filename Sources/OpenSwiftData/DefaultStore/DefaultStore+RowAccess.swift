import OpenSwiftDataCore

extension DefaultStore: DataStoreRowAccess {
    /// As ``fetch(_:)``, with the to-manys kept by their destination's key left to be read when
    /// first read (`DataStoreDeferredToMany`). Rows, not snapshots: building a snapshot per row only
    /// for the context to read it back copied every row's values.
    public final func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        let query = try translate(descriptor, sorted: true)
        let layout = try layout(forEntity: query.entityName)
        let rows = try fetchRows(query, layout: layout, deferringToMany: true)
        let scope = scope(of: layout.entityName)
        return rows.map { DataStoreRow(persistentIdentifier: PersistentIdentifier(scope: scope, primaryKey: .integer($0.key)), values: $0.slots) }
    }

    /// The save's answer as the inserts' keys in order: the result of ``save(_:)``, a dictionary
    /// of every remapped identifier, was the largest allocation of a large save and hashed each
    /// identifier twice.
    public final func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        var token: (any HistoryToken)?
        return try saveRows(request, historyToken: &token)
    }

    /// ``saveRows(_:)``, answering the token of the history transaction the save recorded.
    public final func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        let (keys, token) = try saveInOrder(request)
        historyToken = token
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(keys.count)
        var scopes = StoreScopes(self)
        for (snapshot, key) in zip(request.inserted, keys) {
            identifiers.append(PersistentIdentifier(scope: scopes.own(for: snapshot.persistentIdentifier), primaryKey: .integer(key)))
        }
        return identifiers
    }

    /// The row reader reads each column as its property's declared type.
    public final var rowsHoldDeclaredTypes: Bool { true }
}
