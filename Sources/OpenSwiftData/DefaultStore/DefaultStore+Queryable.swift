import Foundation
import GRDB

/// The default store answers store-neutral queries with the same SQL its typed fetches use.
extension DefaultStore: QueryableDataStore {
    public final func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        let layout = try layout(forEntity: query.entityName)
        return try read("Fetching \(layout.entityName)") { db in
            let statement = try selectStatement(query, layout: layout, columns: layout.selectList, db: db)
            let rows = try Row.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
            let related = try relatedKeys(of: rows.map { $0[0] as Int64 }, layout: layout, db: db)
            return try rows.map { row in try snapshot(of: row, layout: layout, related: related) }
        }
    }

    public final func fetchCount(_ query: DataStoreQuery) throws -> Int {
        let layout = try layout(forEntity: query.entityName)
        return try read("Counting \(layout.entityName)") { db in
            let statement = try countStatement(query, layout: layout, db: db)
            return try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0
        }
    }

    public final func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        let layout = try layout(forEntity: query.entityName)
        return try read("Fetching identifiers of \(layout.entityName)") { db in
            let statement = try selectStatement(query, layout: layout, columns: SQL.column(layout.table.name, SQL.primaryKey), db: db)
            return try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments).map { key in
                identifier(entityName: layout.entityName, key: key)
            }
        }
    }

    public final func deleteModels(matching query: DataStoreQuery) throws {
        try requireWritable("delete models")
        let layout = try layout(forEntity: query.entityName)
        let filter = DataStoreQuery(entityName: query.entityName, filter: query.filter)
        try write("Deleting \(layout.entityName) models") { db in
            let statement = try selectStatement(filter, layout: layout, columns: SQL.column(layout.table.name, SQL.primaryKey), db: db)
            let keys = try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
            try deleteRows([layout.entityName: keys], db: db)
        }
    }
}
