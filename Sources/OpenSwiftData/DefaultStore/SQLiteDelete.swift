import Foundation
import GRDB

extension DefaultStore {
    /// Deletes the models matching the predicate in one statement (all of the entity's when it is
    /// nil). A predicate SQL cannot express throws `DataStoreError.preferInMemoryFilter`, and the
    /// context deletes the matching models itself.
    public final func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try requireWritable("delete models")
        let layout = try layout(forEntity: Schema.entityName(for: T.self))
        let query = try translate(FetchDescriptor<T>(predicate: request.predicate), entityName: layout.entityName, sorted: false)
        try write("Deleting \(layout.entityName) models") { db in
            let statement = try selectStatement(query, layout: layout, columns: SQL.column(layout.table.name, SQL.primaryKey), db: db)
            let keys = try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
            try deleteRows([layout.entityName: keys], db: db)
        }
    }

    /// Deletes rows by key, and removes the references other rows hold to them, so no
    /// relationship names a deleted model.
    func deleteRows(_ keysByEntity: [String: [Int64]], db: Database) throws {
        for (entityName, keys) in keysByEntity where !keys.isEmpty {
            let table = try layout(forEntity: entityName).table
            let list = "[\(keys.map(String.init).joined(separator: ","))]"
            try db.execute(sql: "DELETE FROM \(SQL.quote(table.name)) WHERE \(SQL.quote(SQL.primaryKey)) IN (SELECT value FROM json_each(?))", arguments: [list])
            for referring in layouts.values {
                for column in referring.table.columns where column.destination == entityName {
                    try removeReferences(in: referring.table.name, column: column, to: list, entityName: entityName, db: db)
                }
            }
        }
    }

    private func removeReferences(in table: String, column: SQLiteColumn, to list: String, entityName: String, db: Database) throws {
        let name = SQL.quote(column.name)
        if let entityColumn = column.entityColumn {
            try db.execute(sql: "UPDATE \(SQL.quote(table)) SET \(name) = NULL, \(SQL.quote(entityColumn)) = NULL WHERE \(name) IN (SELECT value FROM json_each(?)) AND \(SQL.quote(entityColumn)) = ?",
                           arguments: [list, entityName])
        } else {
            let source = "\(SQL.quote(table)).\(name)"
            try db.execute(sql: """
                UPDATE \(SQL.quote(table)) SET \(name) = (SELECT json_group_array(value) FROM json_each(\(source)) WHERE value NOT IN (SELECT value FROM json_each(?1))) \
                WHERE EXISTS (SELECT 1 FROM json_each(\(source)) WHERE value IN (SELECT value FROM json_each(?1)))
                """, arguments: [list])
        }
    }
}
