/// The DDL statement tree (``TableDefinition``, ``IndexDefinition``, ``TableAlteration``) as each
/// dialect spells it. The SQLite spellings are kept byte for byte: SQLite stores a table's
/// `CREATE` text in the file, and files written by earlier releases hold it.
extension SQLDialect {
    package func typeName(_ type: ColumnType) -> String {
        switch (kind, type) {
        case (.sqlite, .integer), (.sqlite, .smallInteger), (.sqlite, .boolean): "INTEGER"
        case (.sqlite, .real), (.sqlite, .timestamp): "REAL"
        case (.sqlite, .text), (.sqlite, .codePointText): "TEXT"
        case (.sqlite, .blob), (.sqlite, .uuid): "BLOB"
        case (.sqlite, .untyped): ""
        case (.postgreSQL, .integer): "bigint"
        case (.postgreSQL, .smallInteger): "smallint"
        case (.postgreSQL, .real): "double precision"
        case (.postgreSQL, .boolean): "boolean"
        case (.postgreSQL, .text), (.postgreSQL, .untyped): "text"
        case (.postgreSQL, .codePointText): "text COLLATE \"C\""
        case (.postgreSQL, .blob): "bytea"
        case (.postgreSQL, .uuid): "uuid"
        case (.postgreSQL, .timestamp): "timestamptz"
        }
    }

    /// `"name" TYPE [key] [NOT NULL] [DEFAULT …] [REFERENCES …]`.
    package func render(_ column: ColumnDefinition) -> String {
        var parts = [quotedIdentifier(column.name)]
        let type = typeName(column.type)
        switch (column.primaryKey, kind) {
        case (.generated, .sqlite):
            // SQLite's rowid alias must be spelled INTEGER; AUTOINCREMENT never reuses a number.
            parts += ["INTEGER PRIMARY KEY AUTOINCREMENT"]
        case (.generated(let acceptsSupplied), .postgreSQL):
            parts += [type, "GENERATED \(acceptsSupplied ? "BY DEFAULT" : "ALWAYS") AS IDENTITY PRIMARY KEY"]
        case (.supplied, _):
            parts += [type, "PRIMARY KEY"]
        case (nil, _):
            if !type.isEmpty { parts.append(type) }
        }
        if !column.isNullable, !column.hasGeneratedKey { parts.append("NOT NULL") }
        if let defaultValue = column.defaultValue { parts.append("DEFAULT \(defaultValue)") }
        if let reference = column.reference { parts.append(render(reference)) }
        return parts.joined(separator: " ")
    }

    /// `REFERENCES "T"("Z_PK") ON DELETE … [DEFERRABLE INITIALLY DEFERRED]`.
    package func render(_ reference: ForeignKeyReference) -> String {
        let target = "REFERENCES \(quotedIdentifier(reference.table))(\(quotedIdentifier(reference.column))) ON DELETE \(reference.onDelete.sql)"
        return reference.isDeferred ? target + " DEFERRABLE INITIALLY DEFERRED" : target
    }

    package func render(_ table: TableDefinition) -> String {
        var definitions = table.columns.map(render)
        if !table.primaryKey.isEmpty { definitions.append("PRIMARY KEY (\(quotedList(table.primaryKey)))") }
        return "CREATE TABLE \(table.ifNotExists ? "IF NOT EXISTS " : "")\(quotedIdentifier(table.name)) (\(definitions.joined(separator: ", ")))"
    }

    package func render(_ index: IndexDefinition) -> String {
        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.ifNotExists ? "IF NOT EXISTS " : "")\(quotedIdentifier(index.name)) ON \(quotedIdentifier(index.table)) (\(quotedList(index.columns)))"
    }

    package func dropIndex(named name: String) -> String {
        "DROP INDEX \(quotedIdentifier(name))"
    }

    /// The `ALTER TABLE` statement, or nil when the dialect has none for the change: SQLite
    /// cannot change a column's NOT NULL or default, nor add or drop a constraint, in place.
    package func render(_ alteration: TableAlteration) -> String? {
        let table = "ALTER TABLE \(quotedIdentifier(alteration.table)) "
        switch (alteration.change, kind) {
        case (.addColumn(let column), _):
            return table + "ADD COLUMN " + render(column)
        case (.dropColumn(let name), _):
            return table + "DROP COLUMN \(quotedIdentifier(name))"
        case (.renameColumn(let from, let to), _):
            return table + "RENAME COLUMN \(quotedIdentifier(from)) TO \(quotedIdentifier(to))"
        case (.setNotNull, .sqlite), (.dropNotNull, .sqlite), (.dropDefault, .sqlite), (.addForeignKey, .sqlite), (.dropConstraint, .sqlite):
            return nil
        case (.setNotNull(let name), .postgreSQL):
            return table + "ALTER COLUMN \(quotedIdentifier(name)) SET NOT NULL"
        case (.dropNotNull(let name), .postgreSQL):
            return table + "ALTER COLUMN \(quotedIdentifier(name)) DROP NOT NULL"
        case (.dropDefault(let name), .postgreSQL):
            return table + "ALTER COLUMN \(quotedIdentifier(name)) DROP DEFAULT"
        case (.addForeignKey(let name, let column, let reference), .postgreSQL):
            return table + "ADD CONSTRAINT \(quotedIdentifier(name)) FOREIGN KEY (\(quotedIdentifier(column))) \(render(reference))"
        case (.dropConstraint(let name), .postgreSQL):
            return table + "DROP CONSTRAINT \(quotedIdentifier(name))"
        }
    }

    /// A schema name (an entity's) as an SQL string literal, the same in both dialects. Only for
    /// names from the schema: values are always bound.
    package func stringLiteral(_ name: String) -> String {
        "'" + name.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    private func quotedList(_ names: [String]) -> String {
        names.map(quotedIdentifier).joined(separator: ", ")
    }
}

extension ColumnDefinition {
    var hasGeneratedKey: Bool {
        if case .generated = primaryKey { true } else { false }
    }
}
