import Foundation

/// How much history `DefaultStore` keeps: as it saves, it deletes the transactions beyond either
/// bound, as ``ModelContext/deleteHistory(_:)`` would, and tokens from before them expire
/// (``SwiftDataError/historyTokenExpired``).
///
/// ```swift
/// var configuration = ModelConfiguration(url: storeURL)
/// configuration.historyRetention = HistoryRetention(maximumTransactionCount: 1_000, maximumAge: .seconds(86_400))
/// ```
///
/// The bounds are applied every 64th transaction (every transaction when the count bound is
/// under 512), so the history may briefly hold up to 63 transactions more than the bound.
public struct HistoryRetention: Hashable, Sendable {
    /// The most transactions kept; nil for no bound on their number.
    public var maximumTransactionCount: Int?
    /// How old a transaction may grow before it is deleted; nil for no bound on age.
    public var maximumAge: Duration?

    /// Keeps at most `maximumTransactionCount` transactions, none older than `maximumAge`; nil
    /// leaves that bound out.
    public init(maximumTransactionCount: Int? = nil, maximumAge: Duration? = nil) {
        self.maximumTransactionCount = maximumTransactionCount.map { max(1, $0) }
        self.maximumAge = maximumAge
    }

    /// The default: the newest 100,000 transactions, none older than 30 days.
    public static let `default` = HistoryRetention(maximumTransactionCount: 100_000, maximumAge: .seconds(30 * 86_400))

    /// Every transaction is kept until ``ModelContext/deleteHistory(_:)`` removes it.
    public static let unlimited = HistoryRetention()

    /// Whether the bounds are checked after the transaction numbered `number`.
    package func applies(after number: Int64) -> Bool {
        guard maximumTransactionCount != nil || maximumAge != nil else { return false }
        if let count = maximumTransactionCount, count < 512 { return true }
        return number % 64 == 0
    }
}
