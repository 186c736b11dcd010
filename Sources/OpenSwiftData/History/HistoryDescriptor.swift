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
    public var predicate: Predicate<TransactionType>?
    public var fetchLimit: UInt64 = 0
    /// The order of the transactions; oldest first when empty.
    public var sortBy: [SortDescriptor<TransactionType>]

    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
        sortBy = []
    }

    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
