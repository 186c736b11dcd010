import OpenSwiftDataCore

/// PostgreSQL (13 or later). What it assumes of the store beyond standard SQL:
/// - text columns are declared `COLLATE "C"` (code-point order, which is Swift's `<` on NFC
///   text), text is bound in NFC, and a column holding text not in NFC is rendered as its NFC
///   (the `column` closure's SQL);
/// - booleans are `boolean`, `Double`s and dates `double precision` (NaN and infinities kept),
///   collection attributes JSON array text;
/// - arguments are bound with their types (an untyped `$n` compared with a column takes its type).
///
/// String functions with Swift's grapheme semantics (`contains`, `starts(with:)`, `count`,
/// compare options), floating-point arithmetic and collection elements other than strings
/// are refused: PostgreSQL has no equivalent that agrees with Swift on every input, so the
/// context evaluates them.
public struct PostgreSQLDialect: SQLDialect {
    /// The dialect.
    public init() {}

    /// `postgresql`.
    public var name: String { "postgresql" }

    /// `$1`, `$2`, …
    public func placeholder(_ position: Int) -> String { "$\(position)" }

    /// At most 65,535 values bind to one statement; longer lists are one array value.
    public var largeListThreshold: Int { 30_000 }

    /// `= ANY($n)`, the list bound as one array.
    public func listMembership(_ expression: String, _ placeholder: String) -> String? {
        "\(expression) = ANY(\(placeholder))"
    }

    /// `jsonb_array_elements_text`, which reads every element as text.
    public func jsonArrayElements(_ source: String, alias: String?) -> String? {
        "jsonb_array_elements_text(CAST(\(source) AS jsonb)) AS \(alias ?? "j")(value)"
    }

    /// `jsonb_array_length`.
    public func jsonArrayLength(_ source: String) -> String? { "jsonb_array_length(CAST(\(source) AS jsonb))" }

    /// Two bound strings compare in the database's collation unless told otherwise.
    public var codePointCollation: String? { "C" }

    /// `double precision` holds NaN as a value equal to itself and above every number.
    public var storesNaNAsOrderedValue: Bool { true }

    /// `RETURNING` on every write.
    public var supportsReturning: Bool { true }

    /// PostgreSQL's names.
    public func typeName(_ type: ColumnType) -> String {
        switch type {
        case .integer: "bigint"
        case .smallInteger: "smallint"
        case .real: "double precision"
        case .boolean: "boolean"
        case .text, .untyped: "text"
        case .codePointText: "text COLLATE \"C\""
        case .blob: "bytea"
        case .uuid: "uuid"
        case .timestamp: "timestamptz"
        }
    }
}
