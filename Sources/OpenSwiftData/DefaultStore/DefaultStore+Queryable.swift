import Foundation
import GRDB
import GRDBSQLite
import OpenSwiftDataCore

/// The default store's reads and batch deletes, by store-neutral query: what its typed requests
/// translate to, and what a server hands it for a query that arrived over the wire.
extension DefaultStore: QueryableDataStore {
    /// Snapshots hold every value; only a context's fetch (``fetchRows(_:editingState:)``) leaves the
    /// to-manys kept by their destination's key to be read when first read.
    public final func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        let layout = try layout(forEntity: query.entityName)
        return snapshots(of: try fetchRows(query, layout: layout, deferringToMany: false), layout: layout)
    }

    /// The matching rows. `deferringToMany`: the to-manys kept by their destination's key are
    /// left to be read when first read, as a context reads them (`DataStoreDeferredToMany`).
    func fetchRows(_ query: DataStoreQuery, layout: SQLiteEntityLayout, deferringToMany: Bool) throws -> Rows {
        // One statement, without a transaction around it, when no to-many is read now.
        // Related rows of a hierarchy are read now too, to learn their entities.
        let readsToMany = !layout.polymorphic.isEmpty || layout.reader.toMany.contains { !(deferringToMany && $0.isByInverse) }
        if !readsToMany {
            // A planned shape, or one rendered now (a store's first fetch of it), stays one statement
            // unless its SQL depends on the NaN flags: the flags and the select are then read in one
            // transaction.
            return try readOne("Fetching \(layout.entityName)") { db in
                let probe = SQLiteNaNFlags.probe(db)
                let select = try selectStatement(query, layout: layout, columns: .models, db: db, nanFlags: probe)
                guard probe.consulted else { return try rowsDeferringToMany(select.prepared(in: db), select.values, layout: layout) }
                return try Self.committing(.deferred, db) { db in
                    let select = try selectStatement(query, layout: layout, columns: .models, db: db)
                    return try rowsDeferringToMany(select.prepared(in: db), select.values, layout: layout)
                }
            }
        }
        return try read("Fetching \(layout.entityName)") { db in
            try rows(selectStatement(query, layout: layout, columns: .models, db: db), layout: layout, deferring: deferringToMany, db: db)
        }
    }

    /// The number of models matching a store-neutral query, counted in SQL.
    public final func fetchCount(_ query: DataStoreQuery) throws -> Int {
        let layout = try layout(forEntity: query.entityName)
        return try read("Counting \(layout.entityName)") { db in
            let statement = try countStatement(query, layout: layout, db: db)
            var count = 0
            try statement.prepared(in: db).forEachRowBound(statement.values) { count = Int(sqlite3_column_int64($0, 0)) }
            return count
        }
    }

    /// The identifiers of the models matching a store-neutral query, in the query's order.
    public final func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        let layout = try layout(forEntity: query.entityName)
        return try read("Fetching identifiers of \(layout.entityName)") { db in
            let statement = try selectStatement(query, layout: layout, columns: .keys, db: db)
            let scope = scope(of: layout.entityName)
            var identifiers: [PersistentIdentifier] = []
            try statement.prepared(in: db).forEachRowBound(statement.values) { handle in
                identifiers.append(PersistentIdentifier(scope: scope, primaryKey: .integer(sqlite3_column_int64(handle, 0))))
            }
            return identifiers
        }
    }

    /// `DELETE FROM` without a filter (`deleteAll(from:action:)`), one `DELETE … WHERE Z_PK IN
    /// (SELECT …)` with one.
    public final func deleteModels(matching query: DataStoreQuery) throws {
        try deleteModels(matching: query, author: nil)
    }

    /// Deletes every model matching the query's filter, the history naming the context's author.
    public final func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        try deleteModels(matching: query, author: editingState.author)
    }

    /// As ``deleteModels(matching:)``, the history naming `author`. `includingSubentities`: the
    /// models of the entity's subentities too.
    final func deleteModels(matching query: DataStoreQuery, author: String?, includingSubentities: Bool = false) throws {
        try requireWritable("delete models")
        let layout = try layout(forEntity: query.entityName)
        // A hierarchy's table holds other entities' rows: it is never emptied whole.
        let entity = includingSubentities ? layout.hierarchyCondition : layout.entityCondition
        guard query.filter != nil || entity != nil else {
            try deleteAll(from: layout, author: author, action: "Deleting \(layout.entityName) models")
            return
        }
        let filter = DataStoreQuery(entityName: query.entityName, filter: query.filter)
        try write("Deleting \(layout.entityName) models") { db in
            let table = SQL.quote(layout.table.name)
            // The matching keys stay inside SQLite: reading them out and binding them back cost
            // more than the delete itself.
            let matching = try keysStatement(filter, layout: layout, entity: entity, db: db)
            if configuration.keepsHistory { try SQLiteHistoryWriter.recordBatchDelete(of: layout, matching: matching, author: author, db: db) }
            // Bound as every store statement is (``GRDB/Statement/executeBound(_:)``), so that
            // text compares as it was stored.
            try db.makeStatement(sql: "DELETE FROM \(table) WHERE \(SQL.quote(SQL.primaryKey)) IN (\(matching.sql))").executeBound(matching.values)
        }
    }
}
