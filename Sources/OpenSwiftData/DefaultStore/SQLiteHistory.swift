import Foundation
import GRDB
import GRDBSQLite
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// The store's history tables, written in each save's own transaction:
///
/// | table | columns |
/// |---|---|
/// | `osd_history_transactions` | `Z_PK` (the transaction number, never reused), `timestamp`, `author`, `bundle`, `process` |
/// | `osd_history_changes` | `Z_PK` (the change number), `transactionNumber`, `kind` (0 insert, 1 update, 2 delete), `entity`, `key`, `attributes` (an update's changed properties, comma-separated), `lastKey`, `keys`, `numbers` |
/// | `osd_history_tombstones` | `change`, `property`, `value` (as the entity's column stored it) |
///
/// A row may hold several changes of one kind, entity and attribute list
/// (``SQLiteHistoryChanges``): with `lastKey` set, the changes to the keys `key` through
/// `lastKey` (a save of new models, a delete of consecutive rows); with `keys` set, the changes
/// to the keys it lists (the updates of scattered models; see ``keys(in:atMost:)``). Its changes
/// are numbered up to its `Z_PK`, consecutively, or as `numbers` lists them in the same form
/// when other rows' changes come between them (a save of a graph). A row per model made the
/// history as large as the models it recorded.
///
/// `osd_metadata`'s `historyDeletedThrough` holds the highest transaction number
/// ``DefaultStore/deleteHistory(_:)`` removed: tokens below it are expired.
enum SQLiteHistory {
    static let transactions = SQL.quote(HistorySchema.transactionsTable)
    static let changes = SQL.quote(HistorySchema.changesTable)
    static let tombstones = SQL.quote(HistorySchema.tombstonesTable)
    static let deletedThroughKey = "historyDeletedThrough"

    enum Kind: Int64 {
        case insert = 0, update = 1, delete = 2
    }

    /// The last key of a row holding a run of changes (nil for one change).
    private static let lastKey = ColumnDefinition("lastKey", .integer, isNullable: true)
    /// The keys of a row holding more than one run of changes (``keys(in:atMost:)``).
    private static let keys = ColumnDefinition("keys", .text, isNullable: true)
    /// The change numbers of a row whose changes are not consecutive, as ``keys`` lists keys.
    private static let numbers = ColumnDefinition("numbers", .text, isNullable: true)

    /// The tables and their indexes; `value` keeps each tombstone's value as its column stored it.
    static let tableStatements: [String] = {
        let changes = TableDefinition(HistorySchema.changesTable, columns: [
            HistorySchema.number,
            ColumnDefinition("transactionNumber", .integer), ColumnDefinition("kind", .smallInteger), ColumnDefinition("entity", .text),
            ColumnDefinition("key", .integer), ColumnDefinition("attributes", .text, isNullable: true), lastKey, keys, numbers,
        ], ifNotExists: true)
        let tombstones = TableDefinition(HistorySchema.tombstonesTable, columns: [
            ColumnDefinition("change", .integer), ColumnDefinition("property", .text), ColumnDefinition("value", .untyped, isNullable: true),
        ], ifNotExists: true)
        let indexes = HistorySchema.indexes
        return [SQLiteDialect().render(HistorySchema.transactions), SQLiteDialect().render(changes), SQLiteDialect().render(indexes[0]),
                SQLiteDialect().render(tombstones), SQLiteDialect().render(indexes[1])]
    }()

    /// Creates the tables when absent: a new store, or a file written before the store kept history.
    static func createTables(_ db: Database) throws {
        // A store opened before mostly has them all, which one read of the schema tells: five
        // `IF NOT EXISTS` statements each cost a parse and made GRDB drop its schema cache.
        guard try !hasCurrentTables(db) else { return }
        for statement in tableStatements { try db.execute(sql: statement) }
        // Files written before changes were kept as runs or lists have no `lastKey`, `keys` or
        // `numbers`: each of their rows is one model, or one run numbered consecutively.
        let columns = Set(try db.columns(in: HistorySchema.changesTable).map(\.name))
        for column in [lastKey, keys, numbers] where !columns.contains(column.name) {
            try SQLiteMigration.alter(HistorySchema.changesTable, .addColumn(column), db)
        }
    }

    /// Whether the three tables, their two indexes and the changes table's newest column (a file
    /// written before it lacks it) exist.
    private static func hasCurrentTables(_ db: Database) throws -> Bool {
        let names = [HistorySchema.transactionsTable, HistorySchema.changesTable, HistorySchema.tombstonesTable] + HistorySchema.indexes.map(\.name)
        let rows = try Row.fetchAll(db, sql: "SELECT \"name\", \"sql\" FROM sqlite_master WHERE \"name\" IN (\(names.map { _ in "?" }.joined(separator: ", ")))",
                                    arguments: StatementArguments(names))
        let changesSQL = rows.first { $0["name"] == HistorySchema.changesTable }.flatMap { $0["sql"] as String? }
        return rows.count == names.count && changesSQL?.contains(SQL.quote(numbers.name)) == true
    }

    static func deletedThrough(_ db: Database) throws -> Int64 {
        let sql = "SELECT \"value\" FROM \(SQL.quote(SQL.metadataTable)) WHERE \"key\" = '\(deletedThroughKey)'"
        return try String.fetchOne(db, sql: sql).flatMap { Int64($0) } ?? 0
    }

    /// Deletes the transactions beyond the retention's bounds, in the save's transaction, after
    /// the transaction numbered `latest`.
    static func applyRetention(_ retention: HistoryRetention, after latest: Int64, db: Database) throws {
        guard retention.applies(after: latest) else { return }
        var through: Int64 = 0
        if let count = retention.maximumTransactionCount { through = latest - Int64(count) }
        if let age = retention.maximumAge {
            let cutoff = Date().timeIntervalSinceReferenceDate - (Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18)
            let old = try Int64.fetchOne(db, sql: "SELECT max(\"Z_PK\") FROM \(transactions) WHERE \"timestamp\" < ?", arguments: [cutoff]) ?? 0
            through = max(through, old)
        }
        guard through > 0, try Int64.fetchOne(db, sql: "SELECT min(\"Z_PK\") FROM \(transactions)").map({ $0 <= through }) == true else { return }
        try deleteThrough(through, db)
    }

    /// Deletes every transaction numbered up to `number`, with its changes; tokens below it expire.
    static func deleteThrough(_ number: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(tombstones) WHERE \"change\" IN (SELECT \"Z_PK\" FROM \(changes) WHERE \"transactionNumber\" <= ?)", arguments: [number])
        try db.execute(sql: "DELETE FROM \(changes) WHERE \"transactionNumber\" <= ?", arguments: [number])
        try db.execute(sql: "DELETE FROM \(transactions) WHERE \"Z_PK\" <= ?", arguments: [number])
        try setDeletedThrough(max(number, try deletedThrough(db)), db)
    }

    static func setDeletedThrough(_ number: Int64, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(SQL.quote(SQL.metadataTable)) (\"key\", \"value\") VALUES (?, ?) ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
                       arguments: [deletedThroughKey, String(number)])
    }
}

/// Records one save as one history transaction, inside the save's transaction: made before the
/// save deletes rows (it reads the tombstones' values from them), recorded after the save wrote.
struct SQLiteHistoryWriter {
    private let store: DefaultStore
    private let db: Database
    private let request: DataStoreSaveChangesRequest<DefaultSnapshot>
    /// Per deleted model, by entity and key: its preserved properties' stored values.
    private var tombstones: [String: [Int64: [(String, DatabaseValue)]]] = [:]

    init(store: DefaultStore, db: Database, request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws {
        self.store = store
        self.db = db
        self.request = request
        var keysByEntity: [String: [Int64]] = [:]
        for snapshot in request.deleted {
            if case .integer(let key) = snapshot.persistentIdentifier.primaryKey { keysByEntity[snapshot.persistentIdentifier.entityName, default: []].append(key) }
        }
        for (entityName, keys) in keysByEntity {
            guard let layout = store.layouts[entityName] else { continue }
            tombstones[entityName] = try Self.preservedValues(of: keys, layout: layout, db: db)
        }
    }

    /// The stored values of the entity's `.preserveValueOnDeletion` attributes, per key.
    private static func preservedValues(of keys: [Int64], layout: SQLiteEntityLayout, db: Database) throws -> [Int64: [(String, DatabaseValue)]] {
        let preserved = Set(layout.info.preservedOnDeletion.map(\.name))
        let columns = layout.table.columns.filter { $0.hasColumn && !$0.isRelationship && preserved.contains($0.property) }
        guard !columns.isEmpty else { return [:] }
        let list = "[\(keys.map(String.init).joined(separator: ","))]"
        let sql = "SELECT \(SQL.quote(SQL.primaryKey)), \(columns.map { SQL.quote($0.name) }.joined(separator: ", ")) FROM \(SQL.quote(layout.table.name)) WHERE \(SQL.quote(SQL.primaryKey)) IN (SELECT value FROM json_each(?))"
        var values: [Int64: [(String, DatabaseValue)]] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: [list]) {
            values[row[0]] = columns.enumerated().map { ($1.property, row[$0 + 1] as DatabaseValue) }
        }
        return values
    }

    /// Writes the transaction: one change per model (``SQLiteHistoryChanges``), inserts (in the
    /// request's order), then updates, then deletes. `insertKeys` and `newKeys` are each insert's key and whether the
    /// save minted it; an insert merged into a stored model on a uniqueness constraint is that
    /// model's update, naming every property. Answers the transaction's number.
    func record(insertKeys: [Int64], newKeys: [Bool]) throws -> Int64 {
        let transaction = try Self.beginTransaction(author: request.editingState.author, db: db)
        var changes = SQLiteHistoryChanges()
        // Only an insert merged into a stored model can name a model another change names too.
        var recorded = RecordedModels(tracking: newKeys.contains(false))
        var attributes = UpdatedAttributes()
        try Self.forEach(request.inserted) { index, identifier, _ in
            guard recorded.add(identifier.entityName, insertKeys[index]) else { return }
            if newKeys[index] {
                changes.add(.insert, identifier.entityName, key: insertKeys[index])
            } else {
                changes.add(.update, identifier.entityName, key: insertKeys[index], attributes: attributes.names(try info(identifier), nil))
            }
        }
        try Self.forEach(request.updated) { _, identifier, changed in
            guard case .integer(let key) = identifier.primaryKey, recorded.add(identifier.entityName, key) else { return }
            changes.add(.update, identifier.entityName, key: key, attributes: attributes.names(try info(identifier), changed))
        }
        Self.forEach(request.deleted) { _, identifier, _ in
            guard case .integer(let key) = identifier.primaryKey else { return }
            let values = tombstones[identifier.entityName]?[key] ?? []
            let number = changes.add(.delete, identifier.entityName, key: key, alone: !values.isEmpty)
            for (property, value) in values {
                changes.addTombstone(change: number, property: property, value: value)
            }
        }
        try changes.write(transaction: transaction, db: db)
        return transaction
    }

    /// Each snapshot's position, identifier and changed slots, read by index as
    /// `DataStoreRowLayout.rows(of:)` reads them: a `for` over the snapshots copied each one
    /// whole, retaining its values, each a likely cache miss.
    private static func forEach(_ snapshots: [DefaultSnapshot], _ body: (Int, PersistentIdentifier, ChangedSlots?) throws -> Void) rethrows {
        for index in snapshots.indices {
            try body(index, snapshots[index].persistentIdentifier, snapshots[index].changedSlots)
        }
    }

    /// Writes a transaction's row; answers its number.
    private static func beginTransaction(author: String?, db: Database) throws -> Int64 {
        let process = DefaultHistoryTransaction.currentProcess
        try db.cachedStatement(sql: "INSERT INTO \(SQLiteHistory.transactions) (\"timestamp\", \"author\", \"bundle\", \"process\") VALUES (?, ?, ?, ?)")
            .executeBound([Date().timeIntervalSinceReferenceDate.databaseValue, author.map(\.databaseValue) ?? .null,
                           process.bundleIdentifier.databaseValue, process.processIdentifier.databaseValue])
        return db.lastInsertedRowID
    }

    /// Records a batch delete, before its rows go, as one transaction of one delete per row (with
    /// its tombstone): the rows of `layout`'s table whose keys `matching` selects, or all of them.
    /// A delete that matches no row records nothing. Without tombstones to keep, the rows of
    /// consecutive keys of one entity are recorded as one run (see the type's documentation).
    static func recordBatchDelete(of layout: SQLiteEntityLayout, matching: DefaultStore.Statement?, author: String?, db: Database) throws {
        let transaction = try beginTransaction(author: author, db: db)
        let key = SQL.quote(SQL.primaryKey)
        let table = SQL.quote(layout.table.name)
        let filter = matching.map { " WHERE \(key) IN (\($0.sql))" } ?? ""
        // A hierarchy's rows name their own entity: a delete including subclasses takes theirs too.
        let isShared = layout.entityCondition != nil
        let entityArgument = isShared ? [] : [layout.entityName.databaseValue]
        let preserved = Set(layout.info.preservedOnDeletion.map(\.name))
        let tombstoneColumns = layout.table.columns.filter { $0.hasColumn && !$0.isRelationship && preserved.contains($0.property) }
        if tombstoneColumns.isEmpty {
            guard try recordDeleteRuns(of: table, isShared: isShared, entityName: layout.entityName, filter: filter,
                                       arguments: matching?.values ?? [], transaction: transaction, db: db) else {
                return try forget(transaction, db)
            }
            return
        }
        let entity = isShared ? SQL.quote(SQL.entityColumn) : "?"
        try db.makeStatement(sql: "INSERT INTO \(SQLiteHistory.changes) (\"transactionNumber\", \"kind\", \"entity\", \"key\") SELECT ?, \(SQLiteHistory.Kind.delete.rawValue), \(entity), \(key) FROM \(table)\(filter) ORDER BY \(key)")
            .executeBound([transaction.databaseValue] + entityArgument + (matching?.values ?? []))
        guard db.changesCount > 0 else { return try forget(transaction, db) }
        for column in tombstoneColumns {
            try db.execute(sql: """
                INSERT INTO \(SQLiteHistory.tombstones) ("change", "property", "value") SELECT c."Z_PK", ?, t.\(SQL.quote(column.name)) \
                FROM \(SQLiteHistory.changes) AS c JOIN \(table) AS t ON t.\(key) = c."key" WHERE c."transactionNumber" = ?
                """, arguments: [column.property, transaction])
        }
    }

    /// One change row per run of consecutive keys of one entity among the rows `filter` selects,
    /// read in key order: keys are unique across a hierarchy's shared table, so a run is keys one
    /// apart with no other entity's row between them. Answers whether any row matched.
    private static func recordDeleteRuns(of table: String, isShared: Bool, entityName: String, filter: String, arguments: [DatabaseValue],
                                         transaction: Int64, db: Database) throws -> Bool {
        let key = SQL.quote(SQL.primaryKey)
        var changes = SQLiteHistoryChanges()
        if !isShared {
            // Keys with no gap (a table emptied) are one run, read without stepping through every
            // row. A whole table's count, first and last key are three statements, which SQLite
            // answers from the b-tree without reading a row; one statement read every row.
            let sql = filter.isEmpty
                ? "SELECT (SELECT count(*) FROM \(table)), (SELECT min(\(key)) FROM \(table)), (SELECT max(\(key)) FROM \(table))"
                : "SELECT count(*), min(\(key)), max(\(key)) FROM \(table)\(filter)"
            let bounds = try statement(sql, cached: filter.isEmpty, db)
            var range: (count: Int64, first: Int64, last: Int64) = (0, 0, 0)
            try bounds.forEachRowBound(arguments) { handle in
                range = (sqlite3_column_int64(handle, 0), sqlite3_column_int64(handle, 1), sqlite3_column_int64(handle, 2))
            }
            guard range.count > 0 else { return false }
            if SQLiteHistory.runLength(range.first, range.last) == range.count {
                changes.add(.delete, entityName, run: range.first...range.last)
                try changes.write(transaction: transaction, db: db)
                return true
            }
        }
        let entity = isShared ? SQL.quote(SQL.entityColumn) : "NULL"
        // Gathered first and written after: the rows are read while the statement steps.
        try statement("SELECT \(key), \(entity) FROM \(table)\(filter) ORDER BY \(key)", cached: filter.isEmpty, db).forEachRowBound(arguments) { handle in
            let name = isShared ? sqlite3_column_text(handle, 1).map { String(cString: $0) } ?? entityName : entityName
            changes.add(.delete, name, key: sqlite3_column_int64(handle, 0))
        }
        try changes.write(transaction: transaction, db: db)
        return changes.count > 0
    }

    /// A whole table's statements are the same each time, so they stay prepared; a filter's SQL
    /// may differ from one delete to the next, and would fill the connection's statement cache.
    private static func statement(_ sql: String, cached: Bool, _ db: Database) throws -> GRDB.Statement {
        try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
    }

    /// Removes the row of a transaction that recorded nothing.
    private static func forget(_ transaction: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(SQLiteHistory.transactions) WHERE \"Z_PK\" = ?", arguments: [transaction])
    }

    private func info(_ identifier: PersistentIdentifier) throws -> ModelTypeInfo {
        try store.layout(forEntity: identifier.entityName).info
    }
}

/// An update's `attributes` text, kept for the last entity and changed slots: the updates of one
/// save mostly change the same properties of one entity, and joining their names was a string
/// per updated model.
private struct UpdatedAttributes {
    private var last: (info: ObjectIdentifier, changed: ChangedSlots?, names: String)?

    mutating func names(_ info: ModelTypeInfo, _ changed: ChangedSlots?) -> String {
        if let last, last.info == ObjectIdentifier(info), last.changed == changed { return last.names }
        let names = info.changedPropertyNames(changed).joined(separator: ",")
        last = (ObjectIdentifier(info), changed, names)
        return names
    }
}

/// The models a transaction recorded a change of, so that each gets one change.
private struct RecordedModels {
    private let tracking: Bool
    private struct Model: Hashable {
        let entityName: String
        let key: Int64
    }

    private var seen: Set<Model> = []

    /// Without merged inserts every change is a model of its own, and nothing is hashed.
    init(tracking: Bool) { self.tracking = tracking }

    /// Whether the model had no change recorded yet.
    mutating func add(_ entityName: String, _ key: Int64) -> Bool {
        tracking ? seen.insert(Model(entityName: entityName, key: key)).inserted : true
    }
}
