import Foundation

/// One save's changes in `DefaultStore` or ``InMemoryStore``: one change per model the save
/// inserted, updated or deleted, inserts first, then updates, then deletes.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// Transactions are numbered with 64-bit integers.
    public typealias TransactionIdentifier = Int64
    /// The token that marks the store's state after a transaction.
    public typealias TokenType = DefaultHistoryToken

    /// When the save was made.
    public let timestamp: Date
    /// One change per model the save inserted, updated or deleted.
    public let changes: [HistoryChange]
    /// The store's state just after this transaction: keep it to fetch what comes later.
    public let token: DefaultHistoryTransaction.TokenType
    /// Numbers the store's transactions in save order, from 1; never reused.
    public let transactionIdentifier: DefaultHistoryTransaction.TransactionIdentifier
    /// The identifier of the store the save wrote to.
    public let storeIdentifier: String
    /// The saving process's bundle identifier, or its name where it has no bundle identifier.
    public let bundleIdentifier: String
    /// The saving process's identifier (its pid).
    public let processIdentifier: String
    /// The saving context's ``ModelContext/author``.
    public let author: String?

    /// The transaction's number, its ``transactionIdentifier``.
    public var id: Int64 { transactionIdentifier }

    package init(timestamp: Date, changes: [HistoryChange], transactionIdentifier: Int64, storeIdentifier: String,
                 bundleIdentifier: String, processIdentifier: String, author: String?) {
        self.timestamp = timestamp
        self.changes = changes
        token = DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: transactionIdentifier)
        self.transactionIdentifier = transactionIdentifier
        self.storeIdentifier = storeIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.author = author
    }

    /// One transaction of one store: equal when their store and number are.
    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool {
        lhs.transactionIdentifier == rhs.transactionIdentifier && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the store and number that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(storeIdentifier)
    }

    /// What this process records as the saving program.
    package static let currentProcess = (
        bundleIdentifier: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
        processIdentifier: String(ProcessInfo.processInfo.processIdentifier)
    )
}
