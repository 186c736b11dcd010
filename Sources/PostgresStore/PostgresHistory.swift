import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
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
    static let transactions = PostgresSQL.quote(HistorySchema.transactionsTable)
    static let changes = PostgresSQL.quote(HistorySchema.changesTable)
    static let tombstones = PostgresSQL.quote(HistorySchema.tombstonesTable)
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
    static let relations: [(name: String, statement: String)] = {
        let changes = TableDefinition(HistorySchema.changesTable, columns: [
            HistorySchema.number,
            ColumnDefinition("transactionNumber", .integer, reference: cascade(to: HistorySchema.transactionsTable)),
            ColumnDefinition("kind", .smallInteger), ColumnDefinition("entity", .text), ColumnDefinition("key", .integer), ColumnDefinition("attributes", .text),
        ], ifNotExists: true)
        let tombstones = TableDefinition(HistorySchema.tombstonesTable, columns: [
            ColumnDefinition("change", .integer, reference: cascade(to: HistorySchema.changesTable)), ColumnDefinition("property", .text), ColumnDefinition("value", .text),
        ], ifNotExists: true)
        let tables = [HistorySchema.transactions, changes, tombstones].map { ($0.name, PostgreSQLDialect().render($0)) }
        let indexes = HistorySchema.indexes.map { ($0.name, PostgreSQLDialect().render($0)) }
        return [tables[0], tables[1], indexes[0], tables[2], indexes[1]]
    }()

    private static func cascade(to table: String) -> ForeignKeyReference {
        ForeignKeyReference(table: table, column: PostgresSQL.primaryKey, onDelete: .cascade, isDeferred: false)
    }

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
