import Foundation
import GRDB
import GRDBSQLite
import OpenSwiftDataCore

extension DefaultStore {
    /// The keys one to-many relationship holds for each of the rows `keys`, by row key: one query
    /// for the whole result, never one per row.
    ///
    /// A one-to-many reads the destination's key column
    /// (`SELECT "trip", "Z_PK" FROM "BucketListItem" WHERE "trip" IN (…)`), a many-to-many its join
    /// table. Rows come in key order (join tables: in the order the pairs were written).
    func relatedKeys(of keys: [Int64], column: SQLiteColumn, db: Database) throws -> [Int64: [Int64]] {
        guard !keys.isEmpty, let sql = Self.relatedKeysSQL(column) else { return [:] }
        let list = "[\(keys.map(String.init).joined(separator: ","))]"
        var byRow: [Int64: [Int64]] = [:]
        // Read straight through SQLite's C API (``GRDB/Statement/forEachRowBound(_:_:)``):
        // GRDB's row cursor cost more per pair than SQLite's own work.
        try db.cachedStatement(sql: sql).forEachRowBound([list.databaseValue]) { handle in
            byRow[sqlite3_column_int64(handle, 0), default: []].append(sqlite3_column_int64(handle, 1))
        }
        return byRow
    }

    /// The to-many `column` of the rows `keys`, read when one of them is first read: the store
    /// answers for the relationship as it is then, in a read of its own.
    func deferredRelatedKeys(of keys: [Int64], column: SQLiteColumn, layout: SQLiteEntityLayout) -> DataStoreDeferredToMany {
        let entity = layout.entityName
        return DataStoreDeferredToMany(destination: scope(of: column.destination ?? ""), describe: { "\(entity).\(column.property)" }) { [weak self] in
            // A store gone with its container answers nothing, as a model outliving its context reads.
            guard let self else { return [:] }
            return try readOne("Loading \(entity).\(column.property)") { db in try relatedKeys(of: keys, column: column, db: db) }
        }
    }

    /// `SELECT <owning row's key>, <related row's key> … WHERE <owning row's key> IN (<JSON list>)`.
    static func relatedKeysSQL(_ column: SQLiteColumn) -> String? {
        if column.storage == .toManyByInverse, let destination = column.destination, let inverse = column.inverse {
            let foreignKey = SQL.quote(inverse)
            // In the order of the key column's index, (key, rowid): each row's related keys still
            // come in key order, and SQLite reads the index instead of sorting the pairs.
            return "SELECT \(foreignKey), \(SQL.quote(SQL.primaryKey)) FROM \(SQL.quote(column.destinationTable ?? destination)) WHERE \(foreignKey) IN (SELECT value FROM json_each(?)) ORDER BY \(foreignKey), \(SQL.quote(SQL.primaryKey))"
        }
        if let joinTable = column.joinTable {
            let mine = SQL.quote(joinTable.selfColumn)
            return "SELECT \(mine), \(SQL.quote(joinTable.relatedColumn)) FROM \(SQL.quote(joinTable.name)) WHERE \(mine) IN (SELECT value FROM json_each(?)) ORDER BY rowid"
        }
        return nil
    }
}
