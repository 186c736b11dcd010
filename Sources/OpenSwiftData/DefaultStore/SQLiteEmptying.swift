import GRDB
import OpenSwiftDataCore
import Synchronization

/// Deleting every row of a table, the way `delete(model:)` without a predicate asks.
///
/// With foreign keys enforced SQLite deletes such a table row by row: for each row it checks the
/// rows it refers to and applies the actions of the rows that refer to it, where without them
/// `DELETE FROM` empties the table at once. So
/// the store switches enforcement off for that one transaction and does what the foreign keys
/// would have done itself, one statement per reference: `ON DELETE SET NULL` columns are cleared,
/// `ON DELETE CASCADE` rows (join-table pairs) deleted. Then SQLite truncates the table.
struct SQLiteEmptying {
    /// Run in one transaction before the `DELETE FROM`.
    let statements: [String]

    /// Nil when SQLite's own enforcement must stay: a reference with another action, a composite
    /// key, or a cascade into a table that is referenced itself (its deleted rows would need
    /// their own references followed). Also nil when no foreign key touches the table: SQLite
    /// truncates it already, and switching enforcement expires every prepared statement.
    init?(emptying table: String, db: Database) throws {
        let references = try Reference.all(db)
        let target = table.lowercased()
        let parents = Set(references.map { $0.parent.lowercased() })
        guard references.contains(where: { $0.child.lowercased() == target }) || parents.contains(target) else {
            return nil
        }
        var statements: [String] = []
        for reference in references where reference.parent.lowercased() == target {
            let child = reference.child
            guard reference.seq == 0, !references.contains(where: { $0.child == child && $0.id == reference.id && $0.seq > 0 }) else {
                return nil
            }
            // The table's references to its own rows go with them.
            if child.lowercased() == target { continue }
            let quotedChild = SQL.quote(child), quotedColumn = SQL.quote(reference.column)
            switch reference.action.uppercased() {
            case "SET NULL":
                statements.append("UPDATE \(quotedChild) SET \(quotedColumn) = NULL WHERE \(quotedColumn) IS NOT NULL")
            case "CASCADE":
                guard !parents.contains(child.lowercased()) else { return nil }
                // Every row of a NOT NULL column names one of the deleted rows: SQLite truncates.
                let notNull = try reference.isRequired(db)
                statements.append(notNull ? "DELETE FROM \(quotedChild)" : "DELETE FROM \(quotedChild) WHERE \(quotedColumn) IS NOT NULL")
            default:
                return nil
            }
        }
        self.statements = statements
    }
}

extension SQLiteEmptying {
    /// One column of a foreign key of a table of the file.
    struct Reference {
        let child: String
        let id: Int
        let seq: Int
        let parent: String
        let column: String
        let action: String

        /// Every table's foreign keys, read with one plain `PRAGMA foreign_key_list` per table:
        /// the same read as one join over SQLite's table-valued pragma functions, which took
        /// longer to prepare than emptying a small table.
        static func all(_ db: Database) throws -> [Reference] {
            let tables = try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            return try tables.flatMap { child in
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(SQL.quote(child)))").map { row in
                    Reference(child: child, id: row["id"], seq: row["seq"], parent: row["table"], column: row["from"], action: row["on_delete"])
                }
            }
        }

        /// Whether the referencing column is NOT NULL.
        func isRequired(_ db: Database) throws -> Bool {
            try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQL.quote(child)))").contains { ($0["name"] as String) == column && ($0["notnull"] as Bool) }
        }
    }

    /// Each table's plan, worked out once per version of the file's schema: reading every table's
    /// foreign keys costs more than emptying a small table.
    final class Plans: Sendable {
        private let cache = Mutex<(schemaVersion: Int, plans: [String: SQLiteEmptying?])>((-1, [:]))

        /// The plan for emptying `table` under the schema `db` holds now: another connection's
        /// migration changes `PRAGMA schema_version`, which starts the cache over.
        func plan(emptying table: String, db: Database) throws -> SQLiteEmptying? {
            let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0
            let known = cache.withLock { $0.schemaVersion == version ? $0.plans[table] : nil }
            if case .some(let plan) = known { return plan }
            let plan = try SQLiteEmptying(emptying: table, db: db)
            cache.withLock { cache in
                if cache.schemaVersion != version { cache = (version, [:]) }
                cache.plans[table] = .some(plan)
            }
            return plan
        }
    }
}

extension DefaultStore {
    /// Deletes every row of the entity's table in one transaction, following its foreign keys'
    /// actions (``SQLiteEmptying``), after recording the deletes in the history.
    func deleteAll(from layout: SQLiteEntityLayout, author: String?, action: @autoclosure () -> String) throws {
        let table = layout.table.name
        // Worked out before the write: enforcement is switched outside its transaction.
        let emptying = try readOne(action()) { db in
            try Bool.fetchOne(db.cachedStatement(sql: "PRAGMA foreign_keys")) == true ? try emptyingPlans.plan(emptying: table, db: db) : nil
        }
        try write(action(), enforcingForeignKeys: emptying == nil) { db in
            if configuration.keepsHistory { try SQLiteHistoryWriter.recordBatchDelete(of: layout, matching: nil, author: author, db: db) }
            for statement in emptying?.statements ?? [] { try db.cachedStatement(sql: statement).execute() }
            try db.cachedStatement(sql: "DELETE FROM \(SQL.quote(table))").execute()
        }
    }
}
