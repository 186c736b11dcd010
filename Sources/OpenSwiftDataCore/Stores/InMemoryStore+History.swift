/// The store keeps its history in memory, for as long as the store lives.
extension InMemoryStore: HistoryProviding {
    /// The store keeps its history as ``DefaultHistoryTransaction``s.
    public typealias HistoryType = DefaultHistoryTransaction

    /// The type of the store's history transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        try history.fetch(descriptor, storeIdentifier: identifier)
    }

    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        try history.delete(descriptor, storeIdentifier: identifier)
    }
}

/// The server reads and deletes the history by name (``HistoryRecordReading``).
extension InMemoryStore: HistoryRecordReading {
    package var historyStoreIdentifier: String { identifier }

    package func historyRecords(_ query: HistoryRecordQuery) throws -> [HistoryRecord] {
        try history.records(query, storeIdentifier: identifier)
    }

    package func deleteHistoryRecords(_ query: HistoryRecordQuery) throws {
        try history.delete(query, storeIdentifier: identifier)
    }

    package func latestHistoryTransaction() throws -> Int64? {
        history.latestTransaction
    }
}
