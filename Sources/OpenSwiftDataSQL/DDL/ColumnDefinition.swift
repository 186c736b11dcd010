/// A column's type, which each dialect spells its own way (``SQLDialect/typeName(_:)``).
public enum ColumnType: Sendable, Hashable {
    /// A 64-bit integer: SQLite `INTEGER`, PostgreSQL `bigint`.
    case integer
    /// A small code (a history change's kind): SQLite `INTEGER`, PostgreSQL `smallint`.
    case smallInteger
    /// A double: SQLite `REAL`, PostgreSQL `double precision`.
    case real
    /// SQLite `INTEGER` (0 or 1), PostgreSQL `boolean`.
    case boolean
    /// Text in the database's default collation: SQLite `TEXT`, PostgreSQL `text`.
    case text
    /// Text compared in code-point order, Swift's order on NFC text (which stores compare, see
    /// ``SQLiteQueryRenderer``): PostgreSQL `text COLLATE "C"`;
    /// SQLite `TEXT`, whose default collation already compares UTF-8 that way.
    case codePointText
    /// Bytes: SQLite `BLOB`, PostgreSQL `bytea`.
    case blob
    /// SQLite `BLOB` (16 bytes), PostgreSQL `uuid`.
    case uuid
    /// A point in time: PostgreSQL `timestamptz`; SQLite `REAL`, seconds since the epoch.
    case timestamp
    /// No declared type, so that a SQLite column keeps each value's own type; PostgreSQL, which
    /// types every column, `text`.
    case untyped
}

/// What happens to a referring row when the row it refers to is deleted.
package enum ReferentialAction: Sendable, Hashable {
    case cascade, setNull

    var sql: String {
        switch self {
        case .cascade: "CASCADE"
        case .setNull: "SET NULL"
        }
    }
}

/// A foreign key: the column refers to `column` of `table`.
package struct ForeignKeyReference: Sendable, Hashable {
    package var table: String
    package var column: String
    package var onDelete: ReferentialAction
    /// Checked at commit rather than per statement, so that a save may write rows that refer to
    /// each other in any order.
    package var isDeferred: Bool

    package init(table: String, column: String, onDelete: ReferentialAction, isDeferred: Bool) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
        self.isDeferred = isDeferred
    }
}

/// How a column is the table's primary key.
package enum PrimaryKeyKind: Sendable, Hashable {
    /// Values the writer supplies.
    case supplied
    /// An integer the database numbers, never reusing a number: SQLite `AUTOINCREMENT`,
    /// PostgreSQL an identity that accepts supplied values (`BY DEFAULT`) or refuses them (`ALWAYS`).
    case generated(acceptsSuppliedValues: Bool)
}

/// One column of a ``TableDefinition``, or one that ``TableChange/addColumn(_:)`` adds.
///
/// ```swift
/// ColumnDefinition("name", .codePointText)                       // "name" TEXT NOT NULL
/// ColumnDefinition("trip", .integer, isNullable: true, reference: …)
/// ```
package struct ColumnDefinition: Sendable, Hashable {
    package var name: String
    package var type: ColumnType
    /// Ignored for a generated key, which is never NULL.
    package var isNullable: Bool
    package var primaryKey: PrimaryKeyKind?
    /// An SQL expression (a literal from the schema, `now()`), never a value from a model.
    package var defaultValue: String?
    package var reference: ForeignKeyReference?

    package init(_ name: String, _ type: ColumnType, isNullable: Bool = false, primaryKey: PrimaryKeyKind? = nil,
                 defaultValue: String? = nil, reference: ForeignKeyReference? = nil) {
        self.name = name
        self.type = type
        self.isNullable = isNullable
        self.primaryKey = primaryKey
        self.defaultValue = defaultValue
        self.reference = reference
    }
}
