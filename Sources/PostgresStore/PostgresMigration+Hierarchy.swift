import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// Migration of a class hierarchy's shared table (``EntityHierarchy``). A subclass added to a
/// hierarchy is columns added to the root's table, which the column migration does; this is the
/// entity column and the rows of classes that left the hierarchy.
extension PostgresMigration {
    /// Run before the table's columns change, on the columns the catalog lists besides the key;
    /// takes the entity column out of them unless it is to be dropped.
    ///
    /// - A flat table whose entity gained subentities gets the entity column, its rows the root's.
    /// - Rows of entities no longer in the hierarchy are deleted (as a removed property's column
    ///   is dropped); a hierarchy that became one flat entity drops the entity column.
    func changeHierarchy(of layout: PostgresEntityLayout, columns: inout [CatalogColumn]) throws {
        let column = PostgresSQL.quote(PostgresSQL.entityColumn)
        let stored = columns.firstIndex { $0.name == PostgresSQL.entityColumn }
        switch (stored, layout.hierarchy) {
        case (nil, let hierarchy?):
            var entity = EntityTableSchema.entity
            entity.defaultValue = PostgresSQL.literal(hierarchy.root)
            try alter(layout, .addColumn(entity))
            // Every insert names its entity, as in a table created with the hierarchy.
            try alter(layout, .dropDefault(PostgresSQL.entityColumn))
        case (.some, nil):
            try run("DELETE FROM \(layout.table) WHERE \(column) <> \(PostgresSQL.literal(layout.entityName))")
        case (let index?, let hierarchy?):
            columns.remove(at: index)
            guard isSchemaChange else { return }
            try run("DELETE FROM \(layout.table) WHERE \(column) NOT IN (\(hierarchy.entities.map(PostgresSQL.literal).joined(separator: ", ")))")
        case (nil, nil):
            break
        }
    }

    /// A database written before hierarchies shared a table keeps a subentity's rows in a table
    /// of its own, under keys that may repeat the root table's; they are not merged.
    func refuseSeparateSubentityTables(_ layouts: [PostgresEntityLayout], catalog tables: Set<String>) throws {
        for layout in layouts {
            guard let hierarchy = layout.hierarchy else { continue }
            for entity in hierarchy.entities where entity != hierarchy.root && tables.contains(entity) {
                throw PostgresStoreError(.incompatibleSchema, "The database keeps \(entity) in a table of its own, as releases before one table per class hierarchy did; this release keeps it in \(hierarchy.root)'s table and does not move the rows. Copy the \(entity) models into a new database with the earlier release, or drop the \(entity) table if its rows are not needed. The database is unchanged.")
            }
        }
    }
}
