import Foundation

/// The changes one save made in one store, in order.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the token that marks the store's state after a transaction.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type that numbers transactions.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// When the save was made.
    var timestamp: Date { get }
    /// One change per model the save inserted, updated or deleted.
    var changes: [HistoryChange] { get }
    /// The state of the store just after this transaction: compare it with a saved token to find
    /// the transactions since.
    var token: TokenType { get }
    /// Identifies the transaction among the store's transactions.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the store the save wrote to.
    var storeIdentifier: String { get }
    /// The saving context's ``ModelContext/author``.
    var author: String? { get }
}
