import GRDB
import OpenSwiftDataCore

/// The changes of one history transaction, gathered in order and written together: each change
/// is numbered in Swift from the table's last number, so that the changes of one kind, entity and
/// attribute list go in one statement whatever their order, and consecutive changes of one kind,
/// entity and attribute list are one row (see ``SQLiteHistory``). A row per change made the
/// history as large as the models it recorded, and writing it most of an update's save.
struct SQLiteHistoryChanges {
    private struct Group: Hashable {
        let kind: SQLiteHistory.Kind
        let entityName: String
        let attributes: String?
    }

    /// Consecutive changes of one group: their keys as runs of consecutive keys, the last run
    /// inline (a save of new models is one run).
    private struct Stretch {
        let group: Group
        var earlier: [ClosedRange<Int64>] = []
        var first: Int64
        var last: Int64
        var count: Int64 = 1

        /// The row's `keys` text when it holds more than one run, else nil (`key` and `lastKey` say it).
        var keysText: String? {
            guard !earlier.isEmpty else { return nil }
            return (earlier + [first...last]).map(SQLiteHistory.keysElement).joined(separator: ",")
        }
    }

    private var stretches: [Stretch] = []
    /// How many changes were added: the last one's number, counted from the transaction's first.
    private(set) var count: Int64 = 0
    private var tombstones: [(change: Int64, property: String, value: DatabaseValue)] = []

    /// Adds a change; answers its number counted from the transaction's first (1), which a
    /// tombstone names it by.
    @discardableResult
    mutating func add(_ kind: SQLiteHistory.Kind, _ entityName: String, key: Int64, attributes: String? = nil) -> Int64 {
        count += 1
        let index = stretches.count - 1
        if index >= 0, stretches[index].group.kind == kind, stretches[index].group.entityName == entityName,
           stretches[index].group.attributes == attributes {
            stretches[index].count += 1
            if key != .min, stretches[index].last == key - 1 {
                stretches[index].last = key
            } else {
                stretches[index].earlier.append(stretches[index].first...stretches[index].last)
                stretches[index].first = key
                stretches[index].last = key
            }
        } else {
            stretches.append(Stretch(group: Group(kind: kind, entityName: entityName, attributes: attributes), first: key, last: key))
        }
        return count
    }

    /// Adds the changes of one kind to the keys of `run`, in order.
    mutating func add(_ kind: SQLiteHistory.Kind, _ entityName: String, run: ClosedRange<Int64>) {
        add(kind, entityName, key: run.lowerBound)
        guard run.upperBound > run.lowerBound else { return }
        stretches[stretches.count - 1].last = run.upperBound
        stretches[stretches.count - 1].count += run.upperBound - run.lowerBound
        count += run.upperBound - run.lowerBound
    }

    /// Keeps a deleted model's preserved value for the change numbered `change` (from ``add(_:_:key:attributes:)``).
    mutating func addTombstone(change: Int64, property: String, value: DatabaseValue) {
        tombstones.append((change, property, value))
    }

    /// Writes the changes and tombstones of the transaction numbered `transaction`.
    func write(transaction: Int64, db: Database) throws {
        guard !stretches.isEmpty else { return }
        // The number AUTOINCREMENT would give next, less one: never reused, even after deletes.
        let base = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = 'osd_history_changes'), 0), \
            coalesce((SELECT max("Z_PK") FROM \(SQLiteHistory.changes)), 0))
            """)) ?? 0
        // Per group, in the order first seen: its rows as a JSON array of [number, key, lastKey, keys].
        var groups: [Group] = []
        var texts: [String] = []
        var positions: [Group: Int] = [:]
        var through = base
        for stretch in stretches {
            through += stretch.count
            let row: String
            if let keys = stretch.keysText {
                row = "[\(through),\(stretch.earlier[0].lowerBound),null,\"\(keys)\"]"
            } else {
                row = "[\(through),\(stretch.first),\(stretch.last > stretch.first ? String(stretch.last) : "null"),null]"
            }
            // Stretches of one group mostly follow each other: the last group is compared before hashing.
            if let last = groups.indices.last, groups[last] == stretch.group {
                texts[last] += ",\(row)"
            } else if let position = positions[stretch.group] {
                texts[position] += ",\(row)"
            } else {
                positions[stretch.group] = groups.count
                groups.append(stretch.group)
                texts.append(row)
            }
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO \(SQLiteHistory.changes) ("Z_PK", "transactionNumber", "kind", "entity", "key", "attributes", "lastKey", "keys") \
            SELECT json_extract("value", '$[0]'), ?, ?, ?, json_extract("value", '$[1]'), ?, json_extract("value", '$[2]'), json_extract("value", '$[3]') \
            FROM json_each(?) ORDER BY json_each."key"
            """)
        for (group, text) in zip(groups, texts) {
            try insert.executeBound([transaction.databaseValue, group.kind.rawValue.databaseValue, group.entityName.databaseValue,
                                     group.attributes?.databaseValue ?? .null, "[\(text)]".databaseValue])
        }
        guard !tombstones.isEmpty else { return }
        let insertTombstone = try db.cachedStatement(sql: "INSERT INTO \(SQLiteHistory.tombstones) (\"change\", \"property\", \"value\") VALUES (?, ?, ?)")
        for (change, property, value) in tombstones {
            try insertTombstone.executeBound([(base + change).databaseValue, property.databaseValue, value])
        }
    }
}
