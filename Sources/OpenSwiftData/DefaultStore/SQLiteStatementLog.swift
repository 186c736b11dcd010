import GRDB
import Logging
import OpenSwiftDataCore

/// Logs each SQL statement of a store's connection that runs at least
/// ``ModelContainer/slowOperationThreshold``, with its text and duration, so a slow fetch or save
/// can be traced to the statement behind it.
///
/// SQLite's own profile hook times every statement on the connection, those the store prepares
/// itself (``GRDB/Statement/forEachRowBound(_:_:)``) included. The text is the statement as prepared,
/// with `?` in place of its values, so no stored value reaches the log. SQLite measures in whole
/// milliseconds: with a threshold of zero every statement is logged.
enum SQLiteStatementLog {
    static func install(in db: Database, storeName: String) {
        db.trace(options: .profile) { event in
            guard case .profile(let statement, let duration) = event else { return }
            let nanoseconds = Int64(duration * 1e9)
            guard nanoseconds >= slowOperationNanoseconds.load(ordering: .relaxed) else { return }
            ModelContainer.logger.warning("Slow statement", metadata: [
                "store": "\(storeName)", "sql": "\(statement.sql)", "milliseconds": "\(nanoseconds / 1_000_000)",
            ])
        }
    }
}
