import Foundation
import Logging
import OpenSwiftDataCore
import PostgresNIO

/// Every save announces its history transaction on the `osd_history` channel when it commits
/// (`NOTIFY`), whichever process made it; a listener hears them on a connection of its own, so a
/// `ResultsObserver` or `HistoryObserver` reads the history as soon as another process saved.
extension PostgresStore: HistoryAnnouncing {
    /// Calls `handler` after each transaction any process commits to the database, until the
    /// returned object is released. When the listening connection cannot be made, the handler is
    /// never called and observers fall back to reading the history every few seconds.
    public func announceHistory(to handler: @escaping @Sendable () -> Void) -> AnyObject {
        PostgresHistoryListener(pool: pool, handler: handler)
    }
}

/// A `LISTEN osd_history` on a dedicated connection, stopped and closed when released.
final class PostgresHistoryListener: @unchecked Sendable {
    /// Kept for its event loops, which the connection runs on until it is closed: the store may
    /// be released first.
    private let pool: PostgresConnectionPool
    private var connection: PostgresConnection?
    private var context: PostgresListenContext?

    init(pool: PostgresConnectionPool, handler: @escaping @Sendable () -> Void) {
        self.pool = pool
        do {
            let connection = try pool.connectDedicated()
            self.connection = connection
            context = connection.addListener(channel: PostgresHistory.channel) { _, _ in handler() }
            _ = try pool.run("LISTEN \(PostgresSQL.quote(PostgresHistory.channel))", on: connection)
        } catch {
            Logger(label: "OpenSwiftData.PostgresStore").warning("Cannot listen for history announcements; observers will poll instead.", metadata: ["error": "\(error)"])
        }
    }

    deinit {
        context?.stop()
        if let connection { PostgresConnectionPool.close(connection) }
    }
}
