import Foundation

/// The changes one save made in one store, in order.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    var timestamp: Date { get }
    var changes: [HistoryChange] { get }
    /// The state of the store just after this transaction: compare it with a saved token to find
    /// the transactions since.
    var token: TokenType { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var storeIdentifier: String { get }
    /// The saving context's ``ModelContext/author``.
    var author: String? { get }
}
