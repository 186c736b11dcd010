import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// Lightweight migration: brings the tables a store file holds to what the schema describes,
/// inside the transaction that opens the store, so a failed migration changes nothing.
///
/// It creates tables for new entities; adds columns for new properties (filled with the
/// property's default value, `[]` for a non-optional to-many, nil otherwise); renames columns
/// after `@Attribute(originalName:)` (a to-one keeps its foreign key); drops the columns of removed properties (their values go,
/// as in SwiftData); lets a non-optional property become optional, and an optional one become
/// non-optional when no row holds nil; and replaces the indexes. Tables of entities the schema
/// does not name stay as they are (another configuration, or a later version, may use them).
///
/// It refuses, naming the entity and property: a change of stored type, of relationship shape or
/// destination, a new non-optional property without a default value on a table with rows, nil
/// values in a property that became non-optional, and a uniqueness constraint that rows violate.
/// Join tables of new many-to-many relationships are created; a relationship that changes between
/// one-to-many and many-to-many (its inverse changed) is a change of shape, so it is refused.
enum SQLiteMigration {
    struct Context {
        let db: Database
        let path: String
    }

    /// Migrates the tables of `layouts` and returns the store's metadata, creating the metadata
    /// of a new (empty) database.
    static func prepare(_ db: Database, layouts: [SQLiteEntityLayout], schemaVersion: Schema.Version, path: String, isWritable: Bool) throws -> SQLiteMetadata {
        var metadata = try openMetadata(db, path: path, isWritable: isWritable)
        // One per table: the entities of a hierarchy share theirs.
        var seen: Set<String> = []
        let tables = layouts.map(\.storage).filter { seen.insert($0.table.name).inserted }
        let outdated = tables.filter { metadata.tables[$0.table.name] != $0.table }
        guard !outdated.isEmpty else { return metadata }
        guard isWritable else {
            throw migrationRequired(path, "its tables for \(outdated.map(\.table.entityName).joined(separator: ", ")) differ from the schema")
        }
        try refuseSeparateSubentityTables(metadata, outdated, path: path)
        let context = Context(db: db, path: path)
        for storage in outdated {
            if let stored = metadata.tables[storage.table.name] {
                try migrate(stored, to: storage, context)
            } else {
                try db.execute(sql: storage.table.createStatement)
                try createIndexes(of: storage.table, context)
            }
            metadata.tables[storage.table.name] = storage.table
        }
        // Join tables are shared by both sides; those of removed relationships stay, like tables.
        for joinTable in Set(outdated.flatMap(\.table.joinTables)) {
            try db.execute(sql: joinTable.createStatement)
            try db.execute(sql: joinTable.indexStatement)
        }
        try metadata.writeTables(db, schemaVersion: schemaVersion)
        return metadata
    }

    /// The store's metadata, created in a new (empty) database; a file of an older format is
    /// marked as this one's.
    static func openMetadata(_ db: Database, path: String, isWritable: Bool) throws -> SQLiteMetadata {
        var metadata: SQLiteMetadata
        if try SQLiteMetadata.exists(db) {
            metadata = try SQLiteMetadata.read(db, path: path)
        } else {
            guard try SQLiteMetadata.isEmptyDatabase(db) else { throw SQLiteOpening.notAStore(path) }
            guard isWritable else { throw migrationRequired(path, "it is empty") }
            metadata = try SQLiteMetadata.create(db)
        }
        if isWritable { try metadata.upgradeFormat(db) }
        return metadata
    }

    static func migrationRequired(_ path: String, _ reason: String) -> SQLiteStoreError {
        SQLiteStoreError(.migrationRequired, "The store needs to be created or migrated (\(reason)), but its configuration is read-only (allowsSave: false). Open it once with a saving configuration to migrate it.", path: path)
    }

    private static func migrate(_ stored: SQLiteTable, to layout: SQLiteEntityTable.Storage, _ context: Context) throws {
        let db = context.db
        let table = layout.table
        // Indexes go first and come back last: SQLite cannot drop or replace an indexed column.
        let existingIndexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'osd\\_%' ESCAPE '\\'", arguments: [table.name])
        for index in existingIndexes {
            try db.execute(sql: SQLiteDialect().dropIndex(named: index))
        }
        try SQLiteMigration.changeHierarchy(stored, to: table, context)
        let wanted = zip(table.columns, layout.originalNames).map { $0.state(originalName: $1) }
        for change in ColumnDiff.changes(from: stored.columns.map { $0.state(originalName: nil) }, to: wanted) {
            switch change {
            case .add(let name):
                let position = try diffed(table.columns.firstIndex { $0.name == name }, name, table.entityName, context)
                try add(table.columns[position], property: layout.properties[position], entity: "\(table.entityName).\(name)", table: table.name, context)
            case .rename(let from, let to):
                try alter(table.name, .renameColumn(from: from, to: to), db)
            case .drop(let name):
                try alter(table.name, .dropColumn(name), db)
            case .dropNotNull(let name):
                try dropNotNull(diffed(table.column(named: name), name, table.entityName, context), table: table.name, db)
            case .setNotNull(let name):
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(SQL.quote(table.name)) WHERE \(SQL.quote(name)) IS NULL)") == true {
                    throw SQLiteStoreError(.incompatibleSchema, "\(table.entityName).\(name) is now non-optional, but stored models hold nil in it. Keep it optional, or give those models a value before changing the model.", path: context.path)
                }
                // SQLite has no statement for it: the column stays nullable, and the store never
                // writes NULL for a non-optional attribute, which the SQL relies on.
                try alter(table.name, .setNotNull(name), db)
            case .incompatible(let name, _, _):
                let new = try diffed(table.column(named: name), name, table.entityName, context)
                let original = wanted.first { $0.name == name }?.originalName ?? name
                let old = try diffed(stored.column(named: name) ?? stored.column(named: original), name, table.entityName, context)
                throw SQLiteStoreError(.incompatibleSchema, "\(table.entityName).\(name) is stored as \(describe(old)) but the model now declares \(describe(new)); lightweight migration cannot convert it. Keep the old type, or add a new property and copy the values over.", path: context.path)
            }
        }
        try createIndexes(of: table, context)
    }

    /// A column the migration's `ColumnDiff` named. The diff names only columns it was given, so a
    /// miss is a bug in it; the migration's transaction then leaves the file as it was.
    private static func diffed<T>(_ found: T?, _ name: String, _ entity: String, _ context: Context) throws -> T {
        guard let found else {
            throw SQLiteStoreError(.incompatibleSchema, "Migrating \(entity) found no column '\(name)', which its column diff named. This is a bug in OpenSwiftData; please report it. The store file is unchanged.", path: context.path)
        }
        return found
    }

    /// Runs the change; false when SQLite has no statement for it.
    @discardableResult
    static func alter(_ table: String, _ change: TableChange, _ db: Database) throws -> Bool {
        guard let sql = SQLiteDialect().render(TableAlteration(table, change)) else { return false }
        try db.execute(sql: sql)
        return true
    }

    /// Optional columns must accept NULL; SQLite cannot drop NOT NULL in place, so the values move
    /// to a new column.
    private static func dropNotNull(_ column: SQLiteColumn, table: String, _ db: Database) throws {
        guard try !alter(table, .dropNotNull(column.name), db) else { return }
        let temporary = "osd_migrating_\(column.name)"
        try alter(table, .addColumn(ColumnDefinition(temporary, column.columnType, isNullable: true)), db)
        try db.execute(sql: "UPDATE \(SQL.quote(table)) SET \(SQL.quote(temporary)) = \(SQL.quote(column.name))")
        try alter(table, .dropColumn(column.name), db)
        try alter(table, .renameColumn(from: temporary, to: column.name), db)
    }

    private static func add(_ column: SQLiteColumn, property: ModelTypeInfo.Property, entity: String, table: String, _ context: Context) throws {
        let db = context.db
        // Added columns cannot be NOT NULL without a literal default; the store never writes NULL
        // for a non-optional attribute, so the data keeps the invariant the SQL relies on.
        var definition = column.definition
        definition.isNullable = true
        let fill: DatabaseValue?
        switch column.storage {
        case .toOne, .toManyByInverse, .toManyByJoinTable:
            fill = nil
        default:
            if column.isOptional {
                fill = nil
            } else if let defaultValue = property.defaultValue {
                fill = try SQLiteValueCoding.databaseValue(defaultValue)
                // Kept as given, as a save keeps it; queries compare it in NFC.
                if case .string(let text)? = fill?.storage, !text.isNFC {
                    try SQLiteMetadata.flag(["\(table).\(column.name)"], .unnormalizedText, db)
                }
            } else if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(SQL.quote(table)))") == true {
                throw SQLiteStoreError(.incompatibleSchema, "\(entity) is new and non-optional without a default value, so the models already stored would have no value for it. Give it a default value (var \(column.property): … = …) or make it optional.", path: context.path)
            } else {
                fill = nil
            }
        }
        // A default SQLite can spell gives the stored rows their value without rewriting them
        // (the store writes every column of the rows it inserts, so the clause is never used
        // again); any other value is written into every row.
        if let fill, let literal = literal(fill) {
            definition.defaultValue = literal
            try alter(table, .addColumn(definition), db)
            return
        }
        try alter(table, .addColumn(definition), db)
        if let fill {
            try db.execute(sql: "UPDATE \(SQL.quote(table)) SET \(SQL.quote(column.name)) = ?", arguments: [fill])
        }
    }

    /// The value as an SQL literal, nil for one without an exact spelling (a non-finite number,
    /// text holding NUL).
    static func literal(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: "NULL"
        case .int64(let integer): String(integer)
        case .double(let double): double.isFinite ? "\(double)" : nil
        case .string(let string) where !string.contains("\0"): "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .string: nil
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    private static func createIndexes(of table: SQLiteTable, _ context: Context) throws {
        for (name, statement) in table.indexStatements.sorted(by: { $0.key < $1.key }) {
            do {
                try context.db.execute(sql: statement)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw SQLiteStoreError(.incompatibleSchema, "\(table.entityName) has stored models that share values on a uniqueness constraint (\(name)), so the constraint cannot be added. Remove the duplicates with the previous model version first.", path: context.path, underlying: error)
            }
        }
    }

    private static func describe(_ column: SQLiteColumn) -> String {
        switch column.storage {
        case .toOne: "a to-one relationship to \(column.destination ?? "?")"
        case .toManyByInverse: "a one-to-many relationship to \(column.destination ?? "?") through \(column.inverse ?? "?")"
        case .toManyByJoinTable: "a many-to-many relationship to \(column.destination ?? "?") in \(column.joinTable?.name ?? "?")"
        case .json: "JSON (a Codable value)"
        default: column.sqlType
        }
    }
}
