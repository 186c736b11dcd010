import GRDB
import OpenSwiftDataCore

/// The changes of one history transaction, gathered in order and written together: each change
/// is numbered in Swift from the table's last number, so that the changes of one kind, entity and
/// attribute list go in one statement whatever their order, and changes to consecutive keys are
/// one row (see ``SQLiteHistory``). A row per change was a statement per saved model.
struct SQLiteHistoryChanges {
    private struct Group: Hashable {
        let kind: SQLiteHistory.Kind
        let entityName: String
        let attributes: String?
    }

    /// A run of changes to the keys `first` through `last`, in the order they were added.
    private struct Run {
        let group: Group
        let first: Int64
        var last: Int64
    }

    private var runs: [Run] = []
    /// How many changes were added: the last one's number, counted from the transaction's first.
    private(set) var count: Int64 = 0
    private var tombstones: [(change: Int64, property: String, value: DatabaseValue)] = []

    /// Adds a change; answers its number counted from the transaction's first (1), which a
    /// tombstone names it by.
    @discardableResult
    mutating func add(_ kind: SQLiteHistory.Kind, _ entityName: String, key: Int64, attributes: String? = nil) -> Int64 {
        count += 1
        if let last = runs.last, last.last + 1 == key, last.group.kind == kind, last.group.entityName == entityName,
           last.group.attributes == attributes {
            runs[runs.count - 1].last = key
        } else {
            runs.append(Run(group: Group(kind: kind, entityName: entityName, attributes: attributes), first: key, last: key))
        }
        return count
    }

    /// Keeps a deleted model's preserved value for the change numbered `change` (from ``add(_:_:key:attributes:)``).
    mutating func addTombstone(change: Int64, property: String, value: DatabaseValue) {
        tombstones.append((change, property, value))
    }

    /// Writes the changes and tombstones of the transaction numbered `transaction`.
    func write(transaction: Int64, db: Database) throws {
        guard !runs.isEmpty else { return }
        // The number AUTOINCREMENT would give next, less one: never reused, even after deletes.
        let base = try Int64.fetchOne(db, sql: """
            SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = 'osd_history_changes'), 0), \
            coalesce((SELECT max("Z_PK") FROM \(SQLiteHistory.changes)), 0))
            """) ?? 0
        // Per group, in the order first seen: its rows as a JSON array of [number, key, lastKey].
        var groups: [Group] = []
        var texts: [String] = []
        var positions: [Group: Int] = [:]
        var through = base
        for run in runs {
            through += run.last - run.first + 1
            let row = "[\(through),\(run.first),\(run.last > run.first ? String(run.last) : "null")]"
            // Runs of one group mostly follow each other: the last group is compared before hashing.
            if let last = groups.indices.last, groups[last] == run.group {
                texts[last] += ",\(row)"
            } else if let position = positions[run.group] {
                texts[position] += ",\(row)"
            } else {
                positions[run.group] = groups.count
                groups.append(run.group)
                texts.append(row)
            }
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO \(SQLiteHistory.changes) ("Z_PK", "transactionNumber", "kind", "entity", "key", "attributes", "lastKey") \
            SELECT json_extract("value", '$[0]'), ?, ?, ?, json_extract("value", '$[1]'), ?, json_extract("value", '$[2]') \
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
