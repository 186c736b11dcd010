/// The DDL statement tree (``TableDefinition``, ``IndexDefinition``, ``TableAlteration``) as a
/// dialect spells it, through its type names and capabilities.
extension SQLDialect {
    /// `"name" TYPE [key] [NOT NULL] [DEFAULT …] [REFERENCES …]`.
    package func render(_ column: ColumnDefinition) -> String {
        var parts = [quotedIdentifier(column.name)]
        let type = typeName(column.type)
        switch column.primaryKey {
        case .generated(let acceptsSupplied):
            parts.append(generatedKey(type: type, acceptsSuppliedValues: acceptsSupplied))
        case .supplied:
            parts += [type, "PRIMARY KEY"]
        case nil:
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

    /// The `ALTER TABLE` statement, or nil when the dialect has none for the change
    /// (``SQLDialect/altersColumnsInPlace``), and the store takes its own route.
    package func render(_ alteration: TableAlteration) -> String? {
        let table = "ALTER TABLE \(quotedIdentifier(alteration.table)) "
        switch alteration.change {
        case .addColumn(let column):
            return table + "ADD COLUMN " + render(column)
        case .dropColumn(let name):
            return table + "DROP COLUMN \(quotedIdentifier(name))"
        case .renameColumn(let from, let to):
            return table + "RENAME COLUMN \(quotedIdentifier(from)) TO \(quotedIdentifier(to))"
        case .setNotNull(let name) where altersColumnsInPlace:
            return table + "ALTER COLUMN \(quotedIdentifier(name)) SET NOT NULL"
        case .dropNotNull(let name) where altersColumnsInPlace:
            return table + "ALTER COLUMN \(quotedIdentifier(name)) DROP NOT NULL"
        case .dropDefault(let name) where altersColumnsInPlace:
            return table + "ALTER COLUMN \(quotedIdentifier(name)) DROP DEFAULT"
        case .addForeignKey(let name, let column, let reference) where altersColumnsInPlace:
            return table + "ADD CONSTRAINT \(quotedIdentifier(name)) FOREIGN KEY (\(quotedIdentifier(column))) \(render(reference))"
        case .dropConstraint(let name) where altersColumnsInPlace:
            return table + "DROP CONSTRAINT \(quotedIdentifier(name))"
        case .setNotNull, .dropNotNull, .dropDefault, .addForeignKey, .dropConstraint:
            return nil
        }
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
