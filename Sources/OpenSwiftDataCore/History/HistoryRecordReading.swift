/// Which history records to read or delete, in the terms a store runs itself: a
/// ``HistoryFilter``, an order by transaction number, and a limit.
package struct HistoryRecordQuery: Sendable {
    package var filter: HistoryFilter
    /// Newest first (descending transaction numbers) when true, oldest first otherwise.
    package var newestFirst: Bool
    /// The most records to answer; nil for all.
    package var limit: Int?

    package init(filter: HistoryFilter, newestFirst: Bool = false, limit: Int? = nil) {
        self.filter = filter
        self.newestFirst = newestFirst
        self.limit = limit
    }

    /// The part of `descriptor` a store runs: its filter, and its order and limit when nothing is
    /// left for Swift.
    package init(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, filter: HistoryFilter) {
        let inStore = descriptor.limitsInStore(filter)
        self.init(filter: filter, newestFirst: inStore && descriptor.ascendingByNumber == false,
                  limit: inStore ? descriptor.limit : nil)
    }
}

/// A store whose history can be read and deleted by name, with no model types: what `StoreServer`
/// serves to `RemoteStore` clients, which type the records with their own model types.
package protocol HistoryRecordReading {
    /// The identifier the store's transactions and tokens carry.
    var historyStoreIdentifier: String { get }
    /// The records the query selects, in its order; throws for a token of another store or one
    /// from before deleted history.
    func historyRecords(_ query: HistoryRecordQuery) throws -> [HistoryRecord]
    /// Deletes the records the query selects.
    func deleteHistoryRecords(_ query: HistoryRecordQuery) throws
    /// The number of the store's newest transaction, nil while it has none.
    func latestHistoryTransaction() throws -> Int64?
}

extension HistoryRecordReading {
    package func latestHistoryTransaction() throws -> Int64? {
        try historyRecords(HistoryRecordQuery(filter: HistoryFilter(nil), newestFirst: true, limit: 1)).first?.transactionIdentifier
    }
}
