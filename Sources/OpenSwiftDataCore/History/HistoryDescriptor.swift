import Foundation

/// Which history transactions to fetch or delete.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate {
///     $0.token > savedToken && $0.author != "app"
/// })
/// descriptor.fetchLimit = 100
/// ```
///
/// `fetchLimit` is a `UInt64`, as SwiftData declares it; `0`, its default, means no limit (the
/// value SwiftData's documentation calls `nil`).
public struct HistoryDescriptor<TransactionType> where TransactionType: HistoryTransaction {
    /// Selects the transactions; all of them when nil.
    public var predicate: Predicate<TransactionType>?
    /// The most transactions to fetch; 0, the default, for no limit.
    public var fetchLimit: UInt64 = 0
    /// The order of the transactions; oldest first when empty.
    public var sortBy: [SortDescriptor<TransactionType>]

    /// Selects the transactions `predicate` matches, oldest first.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
        sortBy = []
    }

    /// Selects the transactions `predicate` matches, in `sortBy` order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
