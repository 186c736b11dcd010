import OpenSwiftDataCore

/// SQLite (3.35 or later), with the store's registered `osd_*` functions
/// (``SQLiteQueryRenderer/functions``).
///
/// What it assumes of the store: booleans are 0 and 1, dates and doubles `REAL`, NaN kept as the
/// text `NaN` (SQLite turns a bound NaN into NULL), collection attributes JSON array text, whose
/// elements `json_each` reads with their JSON types. Text compares byte-wise (`BINARY`), which is
/// code-point order.
public struct SQLiteDialect: SQLDialect {
    /// The dialect.
    public init() {}

    /// `sqlite`.
    public var name: String { "sqlite" }

    /// `?`: SQLite binds in order.
    public func placeholder(_ position: Int) -> String { "?" }

    /// `1` or `0`.
    public func literal(_ value: Bool) -> String { value ? "1" : "0" }

    /// `IS` and `IS NOT`.
    public var nullSafeOperators: (equal: String, notEqual: String) { ("IS", "IS NOT") }

    /// SQLite puts NULL first ascending, last descending.
    public var ordersNullsFirst: Bool { true }

    /// SQLite has no `OFFSET` without `LIMIT`: -1 means no limit.
    public func pagingClause(limit: Int?, offset: Int?, bind: (Int) -> String) -> String? {
        guard limit == nil, let offset else { return standardPagingClause(limit: limit, offset: offset, bind: bind) }
        return "LIMIT -1 OFFSET \(bind(offset))"
    }

    /// `IN (SELECT value FROM json_each(?))`: the list is bound as one JSON array (SQLite binds
    /// at most 32,766 values in a statement).
    public func listMembership(_ expression: String, _ placeholder: String) -> String? {
        "\(expression) IN (SELECT value FROM json_each(\(placeholder)))"
    }

    /// `json_each(…)`.
    public func jsonArrayElements(_ source: String, alias: String?) -> String? {
        "json_each(\(source))\(alias.map { " AS \($0)" } ?? "")"
    }

    /// `json_array_length(…)`.
    public func jsonArrayLength(_ source: String) -> String? { "json_array_length(\(source))" }

    /// `json_each` reads numbers as numbers.
    public var jsonElementsKeepTheirTypes: Bool { true }

    /// SQLite divides floating-point numbers as Swift does, but for a zero divisor (NULL).
    public func floatDivision(_ lhs: String, _ rhs: String) -> String? { "(CAST(\(lhs) AS REAL) / \(rhs))" }

    /// The store registers the `osd_*` functions on every connection.
    public var hasSwiftStringFunctions: Bool { true }

    /// SQLite 3.35 and later.
    public var supportsReturning: Bool { true }

    /// SQLite's names; the spellings are kept byte for byte: SQLite keeps a table's `CREATE` text
    /// in the file, and files written by earlier releases hold it.
    public func typeName(_ type: ColumnType) -> String {
        switch type {
        case .integer, .smallInteger, .boolean: "INTEGER"
        case .real, .timestamp: "REAL"
        case .text, .codePointText: "TEXT"
        case .blob, .uuid: "BLOB"
        case .untyped: ""
        }
    }

    /// SQLite's rowid alias must be spelled `INTEGER`; `AUTOINCREMENT` never reuses a number.
    public func generatedKey(type: String, acceptsSuppliedValues: Bool) -> String {
        "INTEGER PRIMARY KEY AUTOINCREMENT"
    }

    /// SQLite checks a foreign key's table only when the key is used.
    public var allowsForwardReferences: Bool { true }

    /// SQLite cannot change a column's NOT NULL or default, nor add or drop a constraint, in place.
    public var altersColumnsInPlace: Bool { false }
}
