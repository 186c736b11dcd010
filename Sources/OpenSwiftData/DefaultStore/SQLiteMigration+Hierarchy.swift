import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// Migration of a class hierarchy's shared table (``SQLiteHierarchy``). A subclass added to a
/// hierarchy is columns added to the root's table, which the column migration does; this is the
/// entity column and the rows of classes that left the hierarchy.
extension SQLiteMigration {
    /// Run after the table's indexes are dropped and before its columns change.
    ///
    /// - A flat table whose entity gained subentities gets the entity column, its rows the root's.
    /// - Rows of entities no longer in the hierarchy are deleted (as a removed property's column
    ///   is dropped); a hierarchy that became one flat entity drops the entity column.
    static func changeHierarchy(_ stored: SQLiteTable, to table: SQLiteTable, _ context: Context) throws {
        let db = context.db
        let quoted = SQL.quote(table.name)
        let column = SQL.quote(SQL.entityColumn)
        switch (stored.hierarchy, table.hierarchy) {
        case (nil, .some):
            var entity = EntityTableSchema.entity
            entity.defaultValue = SQL.literal(table.entityName)
            try alter(table.name, .addColumn(entity), db)
        case (.some, nil):
            try db.execute(sql: "DELETE FROM \(quoted) WHERE \(column) <> ?", arguments: [table.entityName])
            try alter(table.name, .dropColumn(SQL.entityColumn), db)
        case (.some(let old), .some(let new)) where !Set(old.entities).isSubset(of: new.entities):
            let kept = new.entities.map(SQL.literal).joined(separator: ", ")
            try db.execute(sql: "DELETE FROM \(quoted) WHERE \(column) NOT IN (\(kept))")
        default:
            break
        }
    }

    /// A file written before hierarchies shared a table keeps a subentity's rows in a table of
    /// its own, under keys that may repeat the root table's; they are not merged.
    static func refuseSeparateSubentityTables(_ metadata: SQLiteMetadata, _ tables: [SQLiteEntityTable.Storage], path: String) throws {
        for storage in tables {
            guard let hierarchy = storage.table.hierarchy else { continue }
            for entity in hierarchy.entities where entity != hierarchy.root && metadata.tables[entity] != nil {
                throw SQLiteStoreError(.incompatibleSchema, "The store keeps \(entity) in a table of its own, as releases before one table per class hierarchy did; this release keeps it in \(hierarchy.root)'s table and does not move the rows. Open the file with the earlier release and copy the \(entity) models into a new store, or move the file aside to start a new one.", path: path)
            }
        }
    }
}
