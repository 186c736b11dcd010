/// A `CREATE TABLE` statement, rendered by ``SQLDialect/render(_:)-(TableDefinition)``.
///
/// ```swift
/// TableDefinition("osd_Trip.travelers", columns: [owner, member], primaryKey: ["owner", "member"], ifNotExists: true)
/// ```
package struct TableDefinition: Sendable, Hashable {
    package var name: String
    package var columns: [ColumnDefinition]
    /// A key of several columns (a join table's pair); empty when a column is the key, or none is.
    package var primaryKey: [String]
    package var ifNotExists: Bool

    package init(_ name: String, columns: [ColumnDefinition], primaryKey: [String] = [], ifNotExists: Bool = false) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.ifNotExists = ifNotExists
    }
}

/// A `CREATE INDEX` statement, rendered by ``SQLDialect/render(_:)-(IndexDefinition)``.
package struct IndexDefinition: Sendable, Hashable {
    package var name: String
    package var table: String
    package var columns: [String]
    package var isUnique: Bool
    package var ifNotExists: Bool

    package init(_ name: String, on table: String, columns: [String], isUnique: Bool = false, ifNotExists: Bool = false) {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
        self.ifNotExists = ifNotExists
    }
}

/// One `ALTER TABLE` operation. Not every dialect can do each in one statement:
/// ``SQLDialect/render(_:)-(TableAlteration)`` answers nil then, and the store takes its own route.
package enum TableChange: Sendable, Hashable {
    case addColumn(ColumnDefinition)
    case dropColumn(String)
    case renameColumn(from: String, to: String)
    case setNotNull(String)
    case dropNotNull(String)
    case dropDefault(String)
    /// A named foreign key on `column`.
    case addForeignKey(name: String, column: String, reference: ForeignKeyReference)
    case dropConstraint(String)
}

/// A ``TableChange`` to one table.
package struct TableAlteration: Sendable, Hashable {
    package var table: String
    package var change: TableChange

    package init(_ table: String, _ change: TableChange) {
        self.table = table
        self.change = change
    }
}
