import GRDB
import GRDBSQLite
import OpenSwiftDataCore

/// The keys one save gives its inserts: the key of the row an insert equals on a uniqueness
/// constraint (inserted earlier in the save, or stored), else a new one after the table's last.
///
/// State is kept per entity, found by its layout's identity: looking the next key, the inserted
/// constraint values and the lookup statement up by entity name hashed the name three times an
/// insert. The entities of a class hierarchy share their table's: its keys, and the values of
/// the constraints they have in common.
final class SQLiteInsertKeys {
    private final class Table {
        /// The next new key; nil until the table's sequence is read.
        var next: Int64?
        /// Whether the table held no row when this save first looked for a stored twin. Inserts
        /// are keyed before any of them is written, so an empty table stays empty meanwhile, and
        /// a bulk load into it needs no lookup per insert.
        var isEmpty: Bool?
        /// By constraint lookup: the values of the rows inserted so far.
        var inserted: [String: Inserted] = [:]
    }

    /// One constraint's values of the rows inserted so far → their key.
    private final class Inserted {
        var keys: [[DatabaseValue]: Int64] = [:]
    }

    private final class Entity {
        let table: Table
        /// Per constraint.
        let inserted: [Inserted]
        /// Per constraint: its lookup of a stored row, prepared on first use.
        var lookups: [Statement?]

        init(table: Table, constraints: [SQLiteEntityWrites.UniqueConstraint]) {
            self.table = table
            inserted = constraints.map { constraint in
                if let shared = table.inserted[constraint.lookup] { return shared }
                let inserted = Inserted()
                table.inserted[constraint.lookup] = inserted
                return inserted
            }
            lookups = Array(repeating: nil, count: constraints.count)
        }
    }

    private let db: Database
    private var flaggedText: Set<String>?
    private var entities: [ObjectIdentifier: Entity] = [:]
    private var tables: [String: Table] = [:]
    /// Inserts come in runs of one entity.
    private var last: (layout: SQLiteEntityLayout, entity: Entity)?

    init(db: Database) {
        self.db = db
    }

    /// A new key: keys continue after the highest ever used (AUTOINCREMENT's `sqlite_sequence`),
    /// so the key of a deleted model never names another one.
    func newKey(_ layout: SQLiteEntityLayout) throws -> Int64 {
        try newKey(entity(layout), layout)
    }

    /// The key for an insert whose row (as far as known: references to inserts not keyed yet read
    /// as nil) is `row`, and whether it is new: neither stored nor given to an earlier insert.
    func key(matching row: [DatabaseValue], _ layout: SQLiteEntityLayout) throws -> (key: Int64, isNew: Bool) {
        let entity = entity(layout)
        let constraints = uniqueValues(of: row, layout: layout)
        if constraints.count == 1 {
            let (index, values) = constraints[0]
            var isNew = false
            // One hash of the values: the entry is made as it is looked up. A throw leaves it at
            // -1, but a save that throws is given up whole.
            let key = try resolve(&entity.inserted[index].keys[values, default: -1]) {
                if let stored = try storedRow(entity, index, layout, values) { return stored }
                isNew = true
                return try newKey(entity, layout)
            }
            return (key, isNew)
        }
        var key: Int64?
        for (index, values) in constraints {
            if let earlier = entity.inserted[index].keys[values] { key = earlier; break }
            if let stored = try storedRow(entity, index, layout, values) { key = stored; break }
        }
        let resolved = try key ?? newKey(entity, layout)
        for (index, values) in constraints { entity.inserted[index].keys[values] = resolved }
        return (resolved, key == nil)
    }

    private func resolve(_ slot: inout Int64, _ make: () throws -> Int64) rethrows -> Int64 {
        if slot < 0 { slot = try make() }
        return slot
    }

    private func entity(_ layout: SQLiteEntityLayout) -> Entity {
        if let last, last.layout === layout { return last.entity }
        let id = ObjectIdentifier(layout)
        let entity = entities[id] ?? Entity(table: table(layout), constraints: layout.writes.uniqueConstraints)
        entities[id] = entity
        last = (layout, entity)
        return entity
    }

    private func table(_ layout: SQLiteEntityLayout) -> Table {
        if let table = tables[layout.table.name] { return table }
        let table = Table()
        tables[layout.table.name] = table
        return table
    }

    private func newKey(_ entity: Entity, _ layout: SQLiteEntityLayout) throws -> Int64 {
        let next = try entity.table.next ?? firstNewKey(layout)
        entity.table.next = next + 1
        return next
    }

    private func firstNewKey(_ layout: SQLiteEntityLayout) throws -> Int64 {
        let sequence = try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = ?"), arguments: [layout.table.name]) ?? 0
        let maximum = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(\(SQL.quote(SQL.primaryKey))) FROM \(SQL.quote(layout.table.name))")) ?? 0
        return max(sequence, maximum) + 1
    }

    /// Per constraint (by index), the row's values; constraints with a nil value are left out, as
    /// SQL's UNIQUE lets NULLs repeat.
    private func uniqueValues(of row: [DatabaseValue], layout: SQLiteEntityLayout) -> [(Int, [DatabaseValue])] {
        var result: [(Int, [DatabaseValue])] = []
        constraints: for (index, constraint) in layout.writes.uniqueConstraints.enumerated() {
            guard let positions = constraint.positions else { continue }
            var values: [DatabaseValue] = []
            for position in positions {
                guard !row[position].isNull else { continue constraints }
                values.append(row[position])
            }
            result.append((index, values))
        }
        return result
    }

    private func storedRow(_ entity: Entity, _ index: Int, _ layout: SQLiteEntityLayout, _ values: [DatabaseValue]) throws -> Int64? {
        if entity.table.isEmpty == nil {
            entity.table.isEmpty = try !(Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(SQL.quote(layout.table.name)))")) ?? false)
        }
        if entity.table.isEmpty == true { return nil }
        let constraint = layout.writes.uniqueConstraints[index]
        let statement: Statement
        if let prepared = entity.lookups[index] {
            statement = prepared
        } else {
            let normalizes = try !constraint.textColumns.isEmpty && !unnormalizedText().isDisjoint(with: constraint.textColumns)
            statement = try db.cachedStatement(sql: normalizes ? constraint.normalizedLookup : constraint.lookup)
            entity.lookups[index] = statement
        }
        var key: Int64?
        // Swift's `==` on text is canonical equivalence: the stored twin of "e\u{301}" may be "\u{e9}".
        try statement.forEachRowBound(constraint.textColumns.isEmpty ? values : values.map(Self.nfc)) { key = sqlite3_column_int64($0, 0) }
        return key
    }

    /// The text columns flagged when this save first looked up a stored twin: rows it writes
    /// are written after every insert is keyed, so the flags stay as read.
    private func unnormalizedText() throws -> Set<String> {
        if let flagged = flaggedText { return flagged }
        let flagged = try SQLiteMetadata.unnormalizedTextColumns(db)
        flaggedText = flagged
        return flagged
    }

    private static func nfc(_ value: DatabaseValue) -> DatabaseValue {
        guard case .string(let text) = value.storage, !text.isNFC else { return value }
        return text.nfc.databaseValue
    }
}
