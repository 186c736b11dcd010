import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// The store's history tables, written in each save's own transaction:
///
/// | table | columns |
/// |---|---|
/// | `osd_history_transactions` | `Z_PK` (the transaction number, from a sequence: never reused), `timestamp`, `author`, `bundle`, `process` |
/// | `osd_history_changes` | `Z_PK` (the change number), `transactionNumber`, `kind` (0 insert, 1 update, 2 delete), `entity`, `key`, `attributes` (an update's changed properties, comma-separated) |
/// | `osd_history_tombstones` | `change`, `property`, `value` (the column's value as text) |
///
/// A transaction takes its number under an advisory lock held until it commits, so transactions
/// become visible in the order of their numbers: a reader that saw number n never later finds a
/// smaller one appear, which is what lets a token mark "everything up to here". `osd_metadata`'s
/// `historyDeletedThrough` holds the highest number deleted: tokens below it are expired.
enum PostgresHistory {
    static let transactions = PostgresSQL.quote("osd_history_transactions")
    static let changes = PostgresSQL.quote("osd_history_changes")
    static let tombstones = PostgresSQL.quote("osd_history_tombstones")
    static let deletedThroughKey = "historyDeletedThrough"
    /// The `LISTEN`/`NOTIFY` channel each transaction announces its number on.
    static let channel = "osd_history"
    /// The advisory lock a transaction holds from taking its number until it commits.
    static let numberingLock: Int64 = 7_001_027

    enum Kind: Int16 {
        case insert = 0, update = 1, delete = 2
    }

    /// The tables and indexes, by name. Changes and tombstones go with their transaction
    /// (`ON DELETE CASCADE`), so deleting history is deleting transactions.
    static let relations: [(name: String, statement: String)] = [
        ("osd_history_transactions", "CREATE TABLE IF NOT EXISTS \(transactions) (\"Z_PK\" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \"timestamp\" double precision NOT NULL, \"author\" text, \"bundle\" text NOT NULL, \"process\" text NOT NULL)"),
        ("osd_history_changes", "CREATE TABLE IF NOT EXISTS \(changes) (\"Z_PK\" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \"transactionNumber\" bigint NOT NULL REFERENCES \(transactions) (\"Z_PK\") ON DELETE CASCADE, \"kind\" smallint NOT NULL, \"entity\" text NOT NULL, \"key\" bigint NOT NULL, \"attributes\" text NOT NULL)"),
        ("osd_history_changes_transaction", "CREATE INDEX IF NOT EXISTS \"osd_history_changes_transaction\" ON \(changes) (\"transactionNumber\")"),
        ("osd_history_tombstones", "CREATE TABLE IF NOT EXISTS \(tombstones) (\"change\" bigint NOT NULL REFERENCES \(changes) (\"Z_PK\") ON DELETE CASCADE, \"property\" text NOT NULL, \"value\" text NOT NULL)"),
        ("osd_history_tombstones_change", "CREATE INDEX IF NOT EXISTS \"osd_history_tombstones_change\" ON \(tombstones) (\"change\")"),
    ]

    static func deletedThrough(_ pool: PostgresConnectionPool, _ connection: PostgresConnection) throws -> Int64 {
        var binds = PostgresBindings()
        binds.append(deletedThroughKey)
        let rows = try pool.run("SELECT value FROM \(PostgresSQL.quote(PostgresSQL.metadataTable)) WHERE key = $1", binds, on: connection)
        return try rows.first.flatMap { Int64(try PostgresRandomAccessRow($0)[0].decode(String.self)) } ?? 0
    }

    /// Deletes the transactions of these numbers with their changes; tokens below the highest expire.
    static func delete(_ numbers: [Int64], _ pool: PostgresConnectionPool, _ connection: PostgresConnection) throws {
        guard let highest = numbers.max() else { return }
        var binds = PostgresBindings()
        binds.append(numbers)
        _ = try pool.run("DELETE FROM \(transactions) WHERE \"Z_PK\" = ANY($1)", binds, on: connection)
        try markDeleted(through: highest, pool, connection)
    }

    /// Deletes the transactions beyond the retention's bounds, after the one numbered `latest`.
    static func applyRetention(_ retention: HistoryRetention, after latest: Int64, _ pool: PostgresConnectionPool, _ connection: PostgresConnection) throws {
        guard retention.applies(after: latest) else { return }
        var through: Int64 = 0
        if let count = retention.maximumTransactionCount { through = latest - Int64(count) }
        if let age = retention.maximumAge {
            var binds = PostgresBindings()
            binds.append(Date().timeIntervalSinceReferenceDate - (Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18))
            let old = try pool.run("SELECT max(\"Z_PK\") FROM \(transactions) WHERE \"timestamp\" < $1", binds, on: connection)
            through = max(through, try old.first.flatMap { try PostgresRandomAccessRow($0)[0].decode(Int64?.self) } ?? 0)
        }
        guard through > 0 else { return }
        var binds = PostgresBindings()
        binds.append(through)
        let deleted = try pool.run("DELETE FROM \(transactions) WHERE \"Z_PK\" <= $1 RETURNING 1", binds, on: connection)
        if !deleted.isEmpty { try markDeleted(through: through, pool, connection) }
    }

    private static func markDeleted(through number: Int64, _ pool: PostgresConnectionPool, _ connection: PostgresConnection) throws {
        var binds = PostgresBindings()
        binds.append(deletedThroughKey)
        binds.append(String(number))
        _ = try pool.run("""
            INSERT INTO \(PostgresSQL.quote(PostgresSQL.metadataTable)) (key, value) VALUES ($1, $2)
            ON CONFLICT (key) DO UPDATE SET value = greatest(\(PostgresSQL.quote(PostgresSQL.metadataTable)).value::bigint, EXCLUDED.value::bigint)::text
            """, binds, on: connection)
    }
}
