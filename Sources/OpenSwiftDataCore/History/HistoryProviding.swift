/// A store that keeps the history of its saves, for ``ModelContext/fetchHistory(_:)`` and
/// ``ModelContext/deleteHistory(_:)``.
///
/// A store adopts it beside ``DataStore``; a context sends a history request to every store of
/// its container whose `HistoryType` is the descriptor's transaction type. `DefaultStore` and
/// ``InMemoryStore`` adopt it with ``DefaultHistoryTransaction``.
public protocol HistoryProviding {
    /// The type of the store's history transactions.
    associatedtype HistoryType: HistoryTransaction
    /// The store's history transaction type.
    static var historyType: HistoryType.Type { get }
    /// The transactions `descriptor` selects, oldest first unless it sorts them otherwise.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Removes the transactions `descriptor` selects. Tokens from before the removed range then
    /// throw ``SwiftDataError/historyTokenExpired`` when used.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
}
