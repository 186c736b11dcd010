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
            let table = SQL.quote(layout.table.name)
            guard query.filter != nil else {
                try db.execute(sql: "DELETE FROM \(table)")
                return
            }
            // The matching keys stay inside SQLite: reading them out and binding them back cost
            // more than the delete itself.
            let matching = try selectStatement(query, layout: layout, columns: SQL.column(layout.table.name, SQL.primaryKey), db: db)
            try db.execute(sql: "DELETE FROM \(table) WHERE \(SQL.quote(SQL.primaryKey)) IN (\(matching.sql))", arguments: matching.arguments)
        }
    }

    /// Deletes rows by key. The foreign keys clear the to-ones that name a deleted row
    /// (`ON DELETE SET NULL`) and remove its join-table pairs (`ON DELETE CASCADE`), so no
    /// relationship names a deleted model.
    func deleteRows(_ keysByEntity: [String: [Int64]], db: Database) throws {
        for (entityName, keys) in keysByEntity where !keys.isEmpty {
            let table = try layout(forEntity: entityName).table
            let list = "[\(keys.map(String.init).joined(separator: ","))]"
            try db.execute(sql: "DELETE FROM \(SQL.quote(table.name)) WHERE \(SQL.quote(SQL.primaryKey)) IN (SELECT value FROM json_each(?))", arguments: [list])
        }
    }
}
