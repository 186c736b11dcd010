import OpenSwiftData

extension SampleRowStore: DataStoreBatching {
    /// Deletes the models the request selects in the store itself: the entity's whole table
    /// without a predicate, else the models the predicate selects. A predicate the store cannot
    /// run goes back to the context (`preferInMemoryFilter`), which fetches the matching models
    /// and deletes each. The rows that referred to the deleted models let go of them
    /// (`DefaultSnapshot.removingReferences(to:)`), as the context's nullify would have had
    /// them saved: a later query on those relationships (`$0.books.isEmpty`) sees them gone.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        configuration.counts.batchDeletes += 1
        let entityName = Schema.entityName(for: T.self)
        // Selected and removed under one lock, so no save comes between.
        try lock.withLock {
            let doomed: Set<PersistentIdentifier>
            if let predicate = request.predicate {
                doomed = Set(try matching(FetchDescriptor<T>(predicate: predicate), in: tables).map(\.persistentIdentifier))
                tables[entityName]?.remove(doomed)
            } else {
                doomed = Set(tables.removeValue(forKey: entityName)?.snapshots.map(\.persistentIdentifier) ?? [])
            }
            guard !doomed.isEmpty else { return }
            for name in Array(tables.keys) {
                tables[name]?.replaceEach { $0.removingReferences(to: doomed) }
            }
        }
    }
}
