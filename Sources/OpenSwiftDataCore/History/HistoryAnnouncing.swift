/// A store that hears of new history transactions as they are recorded, saves by other clients
/// or processes included: `RemoteStore` hears them from its server's event stream.
///
/// ``ResultsObserver`` and ``HistoryObserver`` read the history of a container's stores to learn
/// of saves no context of their own made. Without an announcing store they read it twice a
/// second; with one, they read it as soon as the store announces a transaction, and only every
/// few seconds otherwise.
public protocol HistoryAnnouncing {
    /// Starts calling `handler` (on any thread) each time the store hears of new history
    /// transactions, until the returned object is released.
    func announceHistory(to handler: @escaping @Sendable () -> Void) -> AnyObject
}

extension ModelContainer {
    /// The container's stores that announce new history.
    var historyAnnouncers: [any HistoryAnnouncing] {
        stores.compactMap { $0.store as? any HistoryAnnouncing }
    }
}
