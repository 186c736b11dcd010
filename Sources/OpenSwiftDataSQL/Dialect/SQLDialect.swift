import OpenSwiftDataCore

/// The database a statement is written for: how it spells what differs between databases, and
/// what it can compute exactly as Swift does. One renderer (``SQLiteQueryRenderer``) and one set
/// of statement nodes write every dialect; they ask the dialect only where databases differ.
///
/// ```swift
/// let renderer = SQLiteQueryRenderer(column: { … }, identifierColumn: #""t"."Z_PK""#, primaryKey: { … },
///                                    dialect: .postgreSQL)
/// let clauses = try renderer.render(query)      // "WHERE … ORDER BY … LIMIT $1", arguments in order
/// ```
///
/// As in SQLKit, a dialect is a protocol whose requirements are capability flags and spellings,
/// most with a default that is standard SQL: ``SQLiteDialect`` and ``PostgreSQLDialect`` override
/// what their database spells otherwise. Placeholders are written as a statement renders, numbered
/// in order (``placeholder(_:)``), so rendered pieces compose without rescanning their text. What
/// a dialect cannot compute exactly as Swift does, the renderer refuses with
/// ``QueryTranslationError``, and the context filters or sorts in memory.
public protocol SQLDialect: Sendable {
    /// The dialect's name, for messages.
    var name: String { get }

    /// The placeholder of the `position`th bound value of a statement, counted from 1: `?` for
    /// SQLite, `$1` for PostgreSQL. No default.
    func placeholder(_ position: Int) -> String

    /// `identifier` as a quoted identifier. Default: double quotes, inner ones doubled.
    func quotedIdentifier(_ identifier: String) -> String

    /// A name from the schema (an entity's) as a string literal; values are always bound.
    /// Default: single quotes, inner ones doubled.
    func stringLiteral(_ text: String) -> String

    /// A condition that is always true or always false. Default: `TRUE` and `FALSE`.
    func literal(_ value: Bool) -> String

    /// The operators comparing two values that may be NULL, nil equal to nil. Default:
    /// `IS NOT DISTINCT FROM` and `IS DISTINCT FROM`.
    var nullSafeOperators: (equal: String, notEqual: String) { get }

    /// Whether `ORDER BY` puts NULL first ascending and last descending by itself, as
    /// `SortDescriptor` orders nil. Default: `false`, so each term says `NULLS FIRST` or `NULLS LAST`.
    var ordersNullsFirst: Bool { get }

    /// The paging clause for a limit and an offset; nil for neither. `bind` binds a value and
    /// answers its placeholder: the dialect binds them in the order its clause names them.
    /// Default: `LIMIT l OFFSET o`, `LIMIT l`, `OFFSET o`.
    func pagingClause(limit: Int?, offset: Int?, bind: (Int) -> String) -> String?

    /// Most values a statement binds before a list is bound as one value (``listMembership(_:_:)``).
    /// Default: 500.
    var largeListThreshold: Int { get }

    /// The condition that `expression` is one of the values of a list bound as one value in
    /// `placeholder`, written after `expression` (whose own placeholders come first); nil when the
    /// dialect cannot bind a list as one value. Default: nil.
    func listMembership(_ expression: String, _ placeholder: String) -> String?

    /// The elements of a collection attribute (JSON array text) as rows of one column, `value`,
    /// under `alias`; nil when the dialect has no such function, and collection tests are refused.
    /// Default: nil.
    func jsonArrayElements(_ source: String, alias: String?) -> String?

    /// The number of elements of a collection attribute; nil to refuse. Default: nil.
    func jsonArrayLength(_ source: String) -> String?

    /// Whether JSON array elements read back with their JSON type, so that they compare exactly
    /// with bound numbers and booleans; when not, only elements compared with strings are
    /// rendered. Default: `false`.
    var jsonElementsKeepTheirTypes: Bool { get }

    /// Floating-point division with Swift's result (infinities, NaN), or nil when the database
    /// raises errors where Swift does not, and division is refused. Default: nil.
    func floatDivision(_ lhs: String, _ rhs: String) -> String?

    /// Whether the store's connections have the `osd_*` string functions, which have Swift's
    /// `Character` semantics (``SQLiteQueryRenderer/functions``). Default: `false`, and string
    /// functions are refused.
    var hasSwiftStringFunctions: Bool { get }

    /// The collation that orders text by code point, Swift's order on canonically composed text,
    /// when the database's own order for two bound strings may differ; nil when it is already so.
    /// Default: nil.
    var codePointCollation: String? { get }

    /// Whether a floating-point column keeps NaN as a value equal to itself and above every
    /// number, as PostgreSQL does, so comparisons test for it explicitly. Default: `false`.
    var storesNaNAsOrderedValue: Bool { get }

    /// Whether `INSERT`, `UPDATE` and `DELETE` take a `RETURNING` clause. Default: `false`.
    var supportsReturning: Bool { get }

    /// How an insert that meets an existing row on a key is turned into an update. Default:
    /// ``SQLUpsertSyntax/onConflict``.
    var upsertSyntax: SQLUpsertSyntax { get }

    /// The type name of a column type. No default.
    func typeName(_ type: ColumnType) -> String

    /// A key column the database numbers, never reusing a number: `type`, then the clause.
    /// Default: `<type> GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY` (or `ALWAYS` when the writer
    /// may not supply values).
    func generatedKey(type: String, acceptsSuppliedValues: Bool) -> String

    /// Whether a table may be created with a foreign key to a table that does not exist yet, as
    /// SQLite allows; when not, the keys are added once every table exists. Default: `false`.
    var allowsForwardReferences: Bool { get }

    /// Whether `ALTER TABLE` can change a column's nullability and default, and add or drop a
    /// constraint. Default: `true`.
    var altersColumnsInPlace: Bool { get }
}

/// How a dialect spells an insert that updates the row it meets on a key.
public enum SQLUpsertSyntax: Sendable, Hashable {
    /// `ON CONFLICT (key) DO UPDATE SET c = excluded.c` (SQLite, PostgreSQL).
    case onConflict
    /// `ON DUPLICATE KEY UPDATE c = VALUES(c)` (MySQL).
    case onDuplicateKey
}

extension SQLDialect {
    /// Double quotes, inner quotes doubled.
    public func quotedIdentifier(_ identifier: String) -> String {
        // Runs for every column of every statement: stay off Foundation for the usual names.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// Single quotes, inner quotes doubled.
    public func stringLiteral(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    /// `TRUE` or `FALSE`.
    public func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// `IS NOT DISTINCT FROM` and `IS DISTINCT FROM`.
    public var nullSafeOperators: (equal: String, notEqual: String) { ("IS NOT DISTINCT FROM", "IS DISTINCT FROM") }

    /// `false`: each sort term names where NULL goes.
    public var ordersNullsFirst: Bool { false }

    /// `LIMIT l OFFSET o`, `LIMIT l` or `OFFSET o`.
    public func pagingClause(limit: Int?, offset: Int?, bind: (Int) -> String) -> String? {
        standardPagingClause(limit: limit, offset: offset, bind: bind)
    }

    /// The default ``pagingClause(limit:offset:bind:)``, for a dialect that differs in one case.
    func standardPagingClause(limit: Int?, offset: Int?, bind: (Int) -> String) -> String? {
        switch (limit, offset) {
        case let (limit?, offset?): "LIMIT \(bind(limit)) OFFSET \(bind(offset))"
        case let (limit?, nil): "LIMIT \(bind(limit))"
        case let (nil, offset?): "OFFSET \(bind(offset))"
        case (nil, nil): nil
        }
    }

    /// 500.
    public var largeListThreshold: Int { 500 }

    /// None: long lists are bound value by value.
    public func listMembership(_ expression: String, _ placeholder: String) -> String? { nil }

    /// None: collection tests are refused.
    public func jsonArrayElements(_ source: String, alias: String?) -> String? { nil }

    /// None: counts of collections are refused.
    public func jsonArrayLength(_ source: String) -> String? { nil }

    /// `false`.
    public var jsonElementsKeepTheirTypes: Bool { false }

    /// None: floating-point division is refused.
    public func floatDivision(_ lhs: String, _ rhs: String) -> String? { nil }

    /// `false`.
    public var hasSwiftStringFunctions: Bool { false }

    /// None.
    public var codePointCollation: String? { nil }

    /// `false`.
    public var storesNaNAsOrderedValue: Bool { false }

    /// `false`.
    public var supportsReturning: Bool { false }

    /// `ON CONFLICT … DO UPDATE`.
    public var upsertSyntax: SQLUpsertSyntax { .onConflict }

    /// A standard identity column.
    public func generatedKey(type: String, acceptsSuppliedValues: Bool) -> String {
        "\(type) GENERATED \(acceptsSuppliedValues ? "BY DEFAULT" : "ALWAYS") AS IDENTITY PRIMARY KEY"
    }

    /// `false`.
    public var allowsForwardReferences: Bool { false }

    /// `true`.
    public var altersColumnsInPlace: Bool { true }
}

extension SQLDialect where Self == SQLiteDialect {
    /// SQLite, with the store's `osd_*` functions (``SQLiteDialect``).
    public static var sqlite: SQLiteDialect { SQLiteDialect() }
}

extension SQLDialect where Self == PostgreSQLDialect {
    /// PostgreSQL 13 or later (``PostgreSQLDialect``).
    public static var postgreSQL: PostgreSQLDialect { PostgreSQLDialect() }
}
