import OpenSwiftData

extension SampleRowStore: DataStoreBatching {
    /// Deletes the models the request selects in the store itself: the entity's whole table
    /// without a predicate, else the models the predicate selects. A predicate the store cannot
    /// run goes back to the context (`preferInMemoryFilter`), which fetches the matching models
    /// and deletes each. References to the deleted models that other rows still hold read as
    /// gone, as a context reads any identifier the store no longer has.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        configuration.counts.batchDeletes += 1
        let entityName = Schema.entityName(for: T.self)
        guard let predicate = request.predicate else {
            lock.withLock { tables[entityName] = nil }
            return
        }
        // Selected and removed under one lock, so no save comes between.
        try lock.withLock {
            let doomed = try matching(FetchDescriptor<T>(predicate: predicate), in: tables).map(\.persistentIdentifier)
            tables[entityName]?.remove(Set(doomed))
        }
    }
}
