extension StoreSlot {
    /// The store's transactions for `descriptor`; `nil` when the store keeps no history of `T`.
    package func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        guard let provider = store as? any HistoryProviding else { return nil }
        func open<S: HistoryProviding>(_ store: S) throws -> [T]? {
            guard let typed = descriptor as? HistoryDescriptor<S.HistoryType> else { return nil }
            return try lock.withLock { try store.fetchHistory(typed) } as? [T]
        }
        return try EntityRegistry.resolving(in: schema) { try open(provider) }
    }

    /// Deletes the store's transactions for `descriptor`; `nil` when the store keeps no history of `T`.
    package func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Void? {
        guard let provider = store as? any HistoryProviding else { return nil }
        func open<S: HistoryProviding>(_ store: S) throws -> Void? {
            guard let typed = descriptor as? HistoryDescriptor<S.HistoryType> else { return nil }
            return try lock.withLock { try store.deleteHistory(typed) }
        }
        return try EntityRegistry.resolving(in: schema) { try open(provider) }
    }
}
