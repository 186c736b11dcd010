import Foundation

extension ModelContext {
    /// The history transactions the descriptor selects, from every store of the container that
    /// keeps history of type `T` (``HistoryProviding``).
    ///
    /// ```swift
    /// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > saved })
    /// for transaction in try context.fetchHistory(descriptor) { … }
    /// ```
    ///
    /// With several such stores, the transactions of each come in timestamp order (then the
    /// descriptor's sort, then its limit), and a store that refuses a token as another store's
    /// is left out. Throws ``PersistenceError`` `.unavailable` (its underlying error
    /// `DataStoreError.unsupportedFeature`) when no store keeps history of `T`.
    public func fetchHistory<T>(_ descriptor: HistoryDescriptor<T>) throws -> [T] where T: HistoryTransaction {
        let answers = try eachHistoryStore(of: T.self) { try $0.fetchHistory(descriptor) }
        guard answers.count > 1 else { return answers.first ?? [] }
        var merged = answers.joined().sorted { $0.timestamp < $1.timestamp }
        if !descriptor.sortBy.isEmpty { merged.sort(using: descriptor.sortBy) }
        if descriptor.fetchLimit > 0 { merged = Array(merged.prefix(Int(clamping: descriptor.fetchLimit))) }
        return merged
    }

    /// Deletes the history transactions the descriptor selects, in every store of the container
    /// that keeps history of type `T`. Tokens from before the deleted transactions then throw
    /// ``SwiftDataError/historyTokenExpired``.
    public func deleteHistory<T>(_ descriptor: HistoryDescriptor<T>) throws where T: HistoryTransaction {
        _ = try eachHistoryStore(of: T.self) { try $0.deleteHistory(descriptor) }
    }

    /// Runs `body` on each store that keeps history of `T`, collecting their answers.
    private func eachHistoryStore<T: HistoryTransaction, R>(of _: T.Type, _ body: (StoreSlot) throws -> R?) throws -> [R] {
        var answers: [R] = []
        var refusal: (any Error)?
        for slot in container.stores {
            do {
                if let answer = try body(slot) { answers.append(answer) }
            } catch let error as PersistenceError where error.code == .foreignHistoryToken && container.stores.count > 1 {
                refusal = refusal ?? error
            }
        }
        if answers.isEmpty, let refusal { throw refusal }
        guard !answers.isEmpty else {
            throw PersistenceError(.unavailable, "No store of this container keeps history of type \(T.self); use a store that adopts HistoryProviding with that HistoryType (DefaultStore and InMemoryStore keep DefaultHistoryTransaction).", underlying: DataStoreError.unsupportedFeature)
        }
        return answers
    }
}
