import GRDB
import OpenSwiftDataCore

/// The changes of one history transaction, gathered in order and written together: each change
/// is numbered in Swift from the table's last number, and the changes of one kind, entity and
/// attribute list are one row whatever their order (see ``SQLiteHistory``), its keys and its
/// numbers kept as runs. A save of a graph alternates entities, and a row per stretch of one
/// entity made its history a row per parent model (see `Benchmarks/README.md`, twenty-seventh round).
struct SQLiteHistoryChanges {
    private struct Group: Hashable {
        let kind: SQLiteHistory.Kind
        let entityName: String
        let attributes: String?
    }

    private struct Row {
        let group: Group
        var keys: Runs
        var numbers: Runs
    }

    private var rows: [Row] = []
    /// The open row of each group. A change with a tombstone is a row of its own, never open: a
    /// tombstone names its change by the row's number.
    private var positions: [Group: Int] = [:]
    /// The row the last change went to: the next change mostly goes there too, found without hashing.
    private var lastRow: Int?
    /// How many changes were added: the last one's number, counted from the transaction's first.
    private(set) var count: Int64 = 0
    private var tombstones: [(change: Int64, property: String, value: DatabaseValue)] = []

    /// Adds a change; answers its number counted from the transaction's first (1), which a
    /// tombstone names it by. A change that will have tombstones (``addTombstone(change:property:value:)``)
    /// is added `alone`.
    @discardableResult
    mutating func add(_ kind: SQLiteHistory.Kind, _ entityName: String, key: Int64, attributes: String? = nil, alone: Bool = false) -> Int64 {
        count += 1
        if !alone, let index = row(kind, entityName, attributes) {
            rows[index].keys.append(key)
            rows[index].numbers.append(count)
        } else {
            let group = Group(kind: kind, entityName: entityName, attributes: attributes)
            if !alone { positions[group] = rows.count }
            lastRow = alone ? nil : rows.count
            rows.append(Row(group: group, keys: Runs(key), numbers: Runs(count)))
        }
        return count
    }

    /// Adds the changes of one kind to the keys of `run`, in order.
    mutating func add(_ kind: SQLiteHistory.Kind, _ entityName: String, run: ClosedRange<Int64>) {
        add(kind, entityName, key: run.lowerBound)
        guard run.upperBound > run.lowerBound, let index = lastRow else { return }
        let added = run.upperBound - run.lowerBound
        rows[index].keys.append(run.lowerBound + 1...run.upperBound)
        rows[index].numbers.append(count + 1...count + added)
        count += added
    }

    /// Keeps a deleted model's preserved value for the change numbered `change` (from ``add(_:_:key:attributes:alone:)``).
    mutating func addTombstone(change: Int64, property: String, value: DatabaseValue) {
        tombstones.append((change, property, value))
    }

    /// The open row of the group, the last one looked at first.
    private mutating func row(_ kind: SQLiteHistory.Kind, _ entityName: String, _ attributes: String?) -> Int? {
        if let lastRow, rows[lastRow].group.kind == kind, rows[lastRow].group.entityName == entityName, rows[lastRow].group.attributes == attributes {
            return lastRow
        }
        lastRow = positions[Group(kind: kind, entityName: entityName, attributes: attributes)]
        return lastRow
    }

    /// Writes the changes and tombstones of the transaction numbered `transaction`.
    func write(transaction: Int64, db: Database) throws {
        guard !rows.isEmpty else { return }
        // The number AUTOINCREMENT would give next, less one: never reused, even after deletes.
        let base = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = 'osd_history_changes'), 0), \
            coalesce((SELECT max("Z_PK") FROM \(SQLiteHistory.changes)), 0))
            """)) ?? 0
        let insert = try db.cachedStatement(sql: """
            INSERT INTO \(SQLiteHistory.changes) ("Z_PK", "transactionNumber", "kind", "entity", "key", "attributes", "lastKey", "keys", "numbers") \
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in rows {
            let keys = row.keys
            let lastKey = keys.isOneRun && keys.last > keys.first ? keys.last.databaseValue : .null
            try insert.executeBound([(base + row.numbers.last).databaseValue, transaction.databaseValue, row.group.kind.rawValue.databaseValue,
                                     row.group.entityName.databaseValue, keys.start.databaseValue, row.group.attributes?.databaseValue ?? .null, lastKey,
                                     keys.isOneRun ? .null : keys.text(adding: 0).databaseValue,
                                     row.numbers.isOneRun ? .null : row.numbers.text(adding: base).databaseValue])
        }
        guard !tombstones.isEmpty else { return }
        let insertTombstone = try db.cachedStatement(sql: "INSERT INTO \(SQLiteHistory.tombstones) (\"change\", \"property\", \"value\") VALUES (?, ?, ?)")
        for (change, property, value) in tombstones {
            try insertTombstone.executeBound([(base + change).databaseValue, property.databaseValue, value])
        }
    }
}

/// Ascending integers as runs of consecutive ones, the last run inline (a save of new models is one run).
private struct Runs {
    private var earlier: [ClosedRange<Int64>] = []
    private(set) var first: Int64
    private(set) var last: Int64

    init(_ value: Int64) {
        first = value
        last = value
    }

    var isOneRun: Bool { earlier.isEmpty }
    /// The first integer of the first run.
    var start: Int64 { earlier.first?.lowerBound ?? first }

    mutating func append(_ value: Int64) {
        append(value...value)
    }

    mutating func append(_ run: ClosedRange<Int64>) {
        if last != .max, run.lowerBound == last + 1 {
            last = run.upperBound
        } else {
            earlier.append(first...last)
            first = run.lowerBound
            last = run.upperBound
        }
    }

    /// The runs as a `keys` or `numbers` text (``SQLiteHistory/keys(in:atMost:)``), each integer
    /// plus `offset`.
    func text(adding offset: Int64) -> String {
        (earlier + [first...last]).map { SQLiteHistory.keysElement($0.lowerBound + offset...$0.upperBound + offset) }.joined(separator: ",")
    }
}
