import Foundation

/// One save's changes in ``DefaultStore`` or ``InMemoryStore``: one change per model the save
/// inserted, updated or deleted, inserts first, then updates, then deletes.
public struct DefaultHistoryTransaction: HistoryTransaction {
    public typealias TransactionIdentifier = Int64
    public typealias TokenType = DefaultHistoryToken

    public let timestamp: Date
    public let changes: [HistoryChange]
    public let token: DefaultHistoryTransaction.TokenType
    /// Numbers the store's transactions in save order, from 1; never reused.
    public let transactionIdentifier: DefaultHistoryTransaction.TransactionIdentifier
    public let storeIdentifier: String
    /// The saving process's bundle identifier, or its name where it has no bundle identifier.
    public let bundleIdentifier: String
    /// The saving process's identifier (its pid).
    public let processIdentifier: String
    public let author: String?

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
