import Foundation
import OpenSwiftData
import StoreWire

/// The server's history, through `POST /v1/history` and `/v1/history/delete`. The conditions of a
/// descriptor's predicate that a store runs itself (token and transaction-number comparisons,
/// author, changed entities, among its top-level `&&` terms) run on the server, and so do the
/// order and the limit when nothing is left for the client; the rest of the predicate runs here.
/// Transactions carry the server store's identifier, as its models' identifiers do.
extension RemoteStore: HistoryProviding {
    /// The server keeps its history as `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction

    /// The type of the store's history transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions `descriptor` selects on the server, typed with this process's model types.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        let filter = HistoryFilter(descriptor.predicate)
        let query = HistoryRecordQuery(descriptor, filter: filter)
        let reply = try exchange(StoreAPI.history, body: try encode(HistoryRequest(query)), headers: [])
        let response: HistoryResponse
        do {
            response = try HistoryResponse.decode(from: reply.body)
        } catch {
            throw RemoteStoreError(.invalidResponse, "The server's answer to \(StoreAPI.history) cannot be read (\(error)); are client and server built from the same models and versions?", status: reply.status, underlying: error)
        }
        // `finish` takes them oldest first.
        let records = query.newestFirst ? response.transactions.reversed() : response.transactions
        return try descriptor.evaluated(try records.map { try $0.transaction(storeIdentifier: response.storeIdentifier) }, filter: filter)
    }

    /// Deletes the transactions `descriptor` selects on the server; tokens below the highest
    /// deleted number expire. A predicate the server cannot run whole is run here first, and its
    /// transactions are deleted by number.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        let filter = HistoryFilter(descriptor.predicate)
        guard !descriptor.limitsInStore(filter) else {
            return try deleteHistory(HistoryRecordQuery(descriptor, filter: filter))
        }
        for transaction in try fetchHistory(descriptor) {
            try deleteHistory(HistoryRecordQuery(filter: HistoryFilter(conditions: [.transaction(.equal, transaction.transactionIdentifier)], tokens: [])))
        }
    }

    private func deleteHistory(_ query: HistoryRecordQuery) throws {
        _ = try exchange(StoreAPI.deleteHistory, body: try encode(HistoryRequest(query)), headers: [])
    }
}

/// A remote store hears of every new transaction on its server, whoever saved it, through the
/// server's `GET /v1/history/events` stream, open while any handler listens.
extension RemoteStore: HistoryAnnouncing {
    /// Calls `handler` after each transaction the server announces, and once on each (re)connection.
    public func announceHistory(to handler: @escaping @Sendable () -> Void) -> AnyObject {
        historyListener.add(handler)
    }
}
