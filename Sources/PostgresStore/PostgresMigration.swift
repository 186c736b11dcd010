import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// Lightweight migration on PostgreSQL: brings the database's tables to what a schema's layouts
/// describe, reading what they hold from the catalog, inside the migration's transaction.
///
/// It creates the tables of new entities and join tables of new many-to-many relationships; adds
/// columns for new properties (filled with the property's default value); renames columns after
/// `originalName`; drops the columns of removed properties (their values go, as in SwiftData);
/// lets a required attribute become optional, and an optional one required when no row holds
/// NULL; and replaces the indexes and foreign keys the schema no longer names. Tables of entities
/// the schema does not name stay (another configuration, or another version, may use them).
///
/// It refuses with ``PostgresStoreError`` `.incompatibleSchema`, naming the entity, the property
/// and the fix: a change of stored type or of relationship shape, a new required property
/// without a default on a table with rows, NULLs in a property that became required, and a new
/// uniqueness constraint that stored rows break.
struct PostgresMigration {
    let pool: PostgresConnectionPool
    let connection: PostgresConnection
    /// Whether the schema record changes: when not, no class left a hierarchy, and an open does
    /// not scan hierarchy tables for their rows.
    var isSchemaChange = true

    /// A column as the catalog describes it.
    struct CatalogColumn {
        var name: String
        var type: String
        var isNullable: Bool
    }

    func apply(_ layouts: [PostgresEntityLayout]) throws {
        let catalog = try catalogColumns()
        try refuseSeparateSubentityTables(layouts, catalog: Set(catalog.keys))
        // Every table first: the foreign keys and join tables below refer to them in any order.
        for layout in layouts {
            if let stored = catalog[layout.entityName] {
                try reshape(layout, from: stored)
            } else {
                try run(layout.createTableStatement)
            }
        }
        // What exists is left alone: `CREATE INDEX IF NOT EXISTS` and adding a constraint lock
        // their table, and an open must not lock tables that other processes' saves are writing.
        let relations = try PostgresMetadata(pool: pool, connection: connection).existingRelations()
        var joinTables = Set<String>()
        for layout in layouts {
            try replaceIndexes(of: layout)
            try replaceForeignKeys(of: layout)
            for column in layout.columns {
                guard let joinTable = column.joinTable, joinTables.insert(joinTable.name).inserted,
                      !relations.contains(PostgresSQL.storedName(joinTable.name)) || !relations.contains(PostgresSQL.storedName(joinTable.memberIndexName)) else { continue }
                for statement in joinTable.createStatements { try run(statement) }
            }
        }
    }

    func run(_ sql: String, _ binds: PostgresBindings) throws -> [PostgresRow] {
        try pool.run(sql, binds, on: connection)
    }

    func run(_ sql: String) throws {
        _ = try pool.run(sql, on: connection)
    }

    /// The columns of every table of the current schema (search path), in table order, by table.
    private func catalogColumns() throws -> [String: [CatalogColumn]] {
        let rows = try run("SELECT table_name::text, column_name::text, data_type::text, is_nullable = 'YES' FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position", PostgresBindings())
        var tables: [String: [CatalogColumn]] = [:]
        for row in rows {
            let cells = PostgresRandomAccessRow(row)
            let column = CatalogColumn(name: try cells[1].decode(String.self), type: try cells[2].decode(String.self), isNullable: try cells[3].decode(Bool.self))
            tables[try cells[0].decode(String.self), default: []].append(column)
        }
        return tables
    }

    /// A column the migration's `ColumnDiff` named. The diff names only columns it was given, so a
    /// miss is a bug in it; the migration's transaction then leaves the database as it was.
    private func diffed<T>(_ found: T?, _ name: String, _ layout: PostgresEntityLayout) throws -> T {
        guard let found else {
            throw PostgresStoreError(.incompatibleSchema, "Migrating \(layout.entityName) found no column '\(name)', which its column diff named. This is a bug in OpenSwiftData; please report it. The database is unchanged.")
        }
        return found
    }

    private func reshape(_ layout: PostgresEntityLayout, from stored: [CatalogColumn]) throws {
        var remaining = stored.filter { $0.name != PostgresSQL.primaryKey }
        try changeHierarchy(of: layout, columns: &remaining)
        let wanted = layout.storedColumns.map { ColumnState($0.name, kind: $0.catalogType, isNullable: $0.definition.isNullable, originalName: $0.originalName) }
        for change in ColumnDiff.changes(from: remaining.map { ColumnState($0.name, kind: $0.type, isNullable: $0.isNullable) }, to: wanted) {
            switch change {
            case .add(let name):
                try add(diffed(layout.column(named: name), name, layout), to: layout)
            case .rename(let from, let to):
                try alter(layout, .renameColumn(from: from, to: to))
            case .drop(let name):
                // Dropping a column drops its indexes and foreign key with it.
                try alter(layout, .dropColumn(name))
            case .dropNotNull(let name):
                try alter(layout, .dropNotNull(name))
            case .setNotNull(let name):
                guard try run("SELECT 1 FROM \(layout.table) WHERE \(PostgresSQL.quote(name)) IS NULL LIMIT 1", PostgresBindings()).isEmpty else {
                    throw PostgresStoreError(.incompatibleSchema, "\(layout.entityName).\(name) is now required, but stored models hold nil in it. Keep it optional, or add a custom stage whose willMigrate gives those models a value. The database is unchanged.")
                }
                try alter(layout, .setNotNull(name))
            case .incompatible(let name, let storedType, _):
                throw PostgresStoreError(.incompatibleSchema, "\(layout.entityName).\(name) is stored as \(storedType), but the model now declares \(Self.describe(try diffed(layout.column(named: name), name, layout))); lightweight migration cannot convert it. Keep the old type, or add a new property and copy the values over in a custom stage. The database is unchanged.")
            }
        }
    }

    func alter(_ layout: PostgresEntityLayout, _ change: TableChange) throws {
        try run(PostgresSQL.alter(layout.tableName, change))
    }

    /// A new property's column, holding its default value in the rows already stored.
    private func add(_ column: PostgresColumn, to layout: PostgresEntityLayout) throws {
        let name = PostgresSQL.quote(column.name)
        try alter(layout, .addColumn(ColumnDefinition(column.name, column.columnType, isNullable: true)))
        guard column.storage != .toOne, !column.isOptional else { return }
        if let defaultValue = column.property.defaultValue {
            var binds = PostgresBindings()
            do {
                try PostgresValueCoding.bind(defaultValue, into: &binds)
            } catch {
                throw PostgresStoreError(.incompatibleSchema, "The default value of \(layout.entityName).\(column.name) cannot be stored: \(error). Give it a storable default.")
            }
            _ = try run("UPDATE \(layout.table) SET \(name) = $1", binds)
        } else if try !run("SELECT 1 FROM \(layout.table) LIMIT 1", PostgresBindings()).isEmpty {
            throw PostgresStoreError(.incompatibleSchema, "\(layout.entityName).\(column.name) is new and required without a default value, so the models already stored would have no value for it. Give it a default value (var \(column.name): … = …) or make it optional. The database is unchanged.")
        }
        try alter(layout, .setNotNull(column.name))
    }

    /// Drops the store's indexes the layout no longer names, then creates the missing ones.
    private func replaceIndexes(of layout: PostgresEntityLayout) throws {
        let indexes = layout.indexStatements
        let present = try dropStale(layout, keeping: indexes.map(\.name),
                      listedBy: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname LIKE 'osd\\_%'") {
            PostgreSQLDialect().dropIndex(named: $0)
        }
        for index in indexes where !present.contains(PostgresSQL.storedName(index.name)) {
            do {
                try run(index.statement)
            } catch let error as PostgresStoreError where error.code == .constraintViolation {
                throw PostgresStoreError(.incompatibleSchema, "\(layout.entityName) has stored models that share values on a uniqueness constraint (\(index.name)), so the constraint cannot be added. Remove the duplicates in a custom stage's willMigrate first. The database is unchanged.", sqlState: error.sqlState)
            }
        }
    }

    /// Drops the store's foreign keys the layout no longer names (a renamed to-one's), then adds
    /// the missing ones.
    private func replaceForeignKeys(of layout: PostgresEntityLayout) throws {
        let present = try dropStale(layout, keeping: layout.toOneColumns.map { $0.foreignKeyName(in: layout.entityName) },
                      listedBy: "SELECT conname::text FROM pg_constraint WHERE contype = 'f' AND conrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass AND conname LIKE 'osd\\_%'") {
            PostgresSQL.alter(layout.tableName, .dropConstraint($0))
        }
        for column in layout.toOneColumns where !present.contains(PostgresSQL.storedName(column.foreignKeyName(in: layout.entityName))) {
            if let statement = column.foreignKey(in: layout.entityName) { try run(statement) }
        }
    }

    /// Drops what `listing` (bound to the entity's name) names that `names` does not, compared
    /// as PostgreSQL keeps names; answers the names kept.
    private func dropStale(_ layout: PostgresEntityLayout, keeping names: [String], listedBy listing: String, drop: (String) -> String) throws -> Set<String> {
        let wanted = Set(names.map(PostgresSQL.storedName))
        var binds = PostgresBindings()
        binds.append(layout.entityName)
        var kept = Set<String>()
        for row in try run(listing, binds) {
            let name = try PostgresRandomAccessRow(row)[0].decode(String.self)
            if wanted.contains(name) { kept.insert(name) } else { try run(drop(name)) }
        }
        return kept
    }

    private static func describe(_ column: PostgresColumn) -> String {
        switch column.storage {
        case .toOne: "a to-one relationship to \(column.destination ?? "?")"
        case .json: "a Codable value (JSON text)"
        default: column.catalogType
        }
    }
}
