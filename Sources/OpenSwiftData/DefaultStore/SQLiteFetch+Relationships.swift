import Foundation
import GRDB

extension DefaultStore {
    /// The keys each fetched row's to-many relationships hold, by property and row key: one query
    /// per to-many relationship for the whole result, never one per row.
    ///
    /// A one-to-many reads the destination's key column
    /// (`SELECT "trip", "Z_PK" FROM "BucketListItem" WHERE "trip" IN (…)`), a many-to-many its join
    /// table. Rows come in key order (join tables: in the order the pairs were written).
    func relatedKeys(of keys: [Int64], layout: SQLiteEntityLayout, db: Database) throws -> [String: [Int64: [Int64]]] {
        let toMany = layout.table.columns.filter(\.isToMany)
        guard !keys.isEmpty, !toMany.isEmpty else { return [:] }
        let list = "[\(keys.map(String.init).joined(separator: ","))]"
        var result: [String: [Int64: [Int64]]] = [:]
        for column in toMany {
            guard let sql = Self.relatedKeysSQL(column) else { continue }
            var byRow: [Int64: [Int64]] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [list])
            while let row = try rows.next() {
                byRow[row[0] as Int64, default: []].append(row[1])
            }
            result[column.property] = byRow
        }
        return result
    }

    /// `SELECT <owning row's key>, <related row's key> … WHERE <owning row's key> IN (<JSON list>)`.
    static func relatedKeysSQL(_ column: SQLiteColumn) -> String? {
        if column.storage == .toManyByInverse, let destination = column.destination, let inverse = column.inverse {
            let foreignKey = SQL.quote(inverse)
            return "SELECT \(foreignKey), \(SQL.quote(SQL.primaryKey)) FROM \(SQL.quote(destination)) WHERE \(foreignKey) IN (SELECT value FROM json_each(?)) ORDER BY \(SQL.quote(SQL.primaryKey))"
        }
        if let joinTable = column.joinTable {
            let mine = SQL.quote(joinTable.selfColumn)
            return "SELECT \(mine), \(SQL.quote(joinTable.relatedColumn)) FROM \(SQL.quote(joinTable.name)) WHERE \(mine) IN (SELECT value FROM json_each(?)) ORDER BY rowid"
        }
        return nil
    }
}
