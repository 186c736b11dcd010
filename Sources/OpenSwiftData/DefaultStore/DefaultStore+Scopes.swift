import OpenSwiftDataCore

extension DefaultStore {
    /// The scope of an entity's identifiers in this store.
    func scope(of entityName: String) -> IdentifierScope {
        scopes[entityName] ?? .of(entityName: entityName, storeIdentifier: storeIdentifier)
    }
}

/// This store's scope for the entity of each identifier handed to it, looked up by entity name
/// once per run: saves hand over inserts in runs of one entity, and a lookup by name per model
/// was a measurable share of keying them.
struct StoreScopes {
    private let store: DefaultStore
    private var last: (seen: IdentifierScope, own: IdentifierScope)?

    init(_ store: DefaultStore) { self.store = store }

    /// The store's scope for the entity of `identifier` (temporary or this store's own).
    mutating func own(for identifier: PersistentIdentifier) -> IdentifierScope {
        if let last, last.seen === identifier.scope { return last.own }
        let own = store.scope(of: identifier.entityName)
        last = (identifier.scope, own)
        return own
    }
}
