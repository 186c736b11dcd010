import OpenSwiftDataCore

/// The database a ``SQLiteQueryRenderer`` writes for: one renderer, whose few spellings that
/// differ between databases are asked of the dialect.
///
/// ```swift
/// let renderer = SQLiteQueryRenderer(dialect: .postgreSQL, column: { … }, identifierColumn: #""t"."pk""#, primaryKey: { … })
/// let clauses = try renderer.render(query)                  // `?` placeholders, composable
/// let text = SQLDialect.postgreSQL.numberingPlaceholders(in: "SELECT … \(clauses.sql)")   // `$1`, `$2`, …
/// ```
///
/// Rendered fragments always use `?` placeholders, so they compose; a PostgreSQL store numbers
/// them (``numberingPlaceholders(in:)``) once the statement is whole. What a dialect cannot
/// compute exactly as Swift does, the renderer refuses with ``QueryTranslationError`` and the
/// context filters or sorts in memory.
public struct SQLDialect: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case sqlite, postgreSQL
    }

    let kind: Kind

    /// SQLite, with the store's registered `osd_*` functions (``SQLiteQueryRenderer/functions``).
    public static let sqlite = SQLDialect(kind: .sqlite)

    /// PostgreSQL (13 or later). What it assumes of the store beyond the SQLite dialect's rules:
    /// - text columns are declared `COLLATE "C"` (code-point order, which is Swift's `<` on NFC
    ///   text), and text is stored and bound in NFC;
    /// - booleans are `boolean`, `Double`s and dates `double precision` (NaN and infinities kept),
    ///   collection attributes JSON array text;
    /// - arguments are bound with their types (an untyped `$n` compared with a column takes its type).
    ///
    /// String functions with Swift's grapheme semantics (`contains`, `starts(with:)`, `count`,
    /// compare options), floating-point arithmetic and collection elements other than strings
    /// are refused: PostgreSQL has no equivalent that agrees with Swift on every input, so the
    /// context evaluates them.
    public static let postgreSQL = SQLDialect(kind: .postgreSQL)

    /// The statement with its `?` placeholders numbered `$1`, `$2`, … in order (PostgreSQL), or as
    /// it is (SQLite). The renderer never writes `?` other than as a placeholder.
    public func numberingPlaceholders(in sql: String) -> String {
        guard kind == .postgreSQL else { return sql }
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + 16)
        var count = 0
        // Runs for every statement: copy the runs between placeholders rather than each character.
        var start = sql.utf8.startIndex
        for index in sql.utf8.indices where sql.utf8[index] == UInt8(ascii: "?") {
            count += 1
            numbered.append(contentsOf: sql[start..<index])
            numbered += "$\(count)"
            start = sql.utf8.index(after: index)
        }
        numbered.append(contentsOf: sql[start...])
        return numbered
    }

    /// `identifier` as a quoted SQL identifier (`"name"`, inner quotes doubled), the same in both
    /// dialects.
    package func quotedIdentifier(_ identifier: String) -> String {
        // Runs for every column of every statement: stay off Foundation for the usual names.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// A condition that is always true or always false.
    func literal(_ value: Bool) -> String {
        switch kind {
        case .sqlite: value ? "1" : "0"
        case .postgreSQL: value ? "TRUE" : "FALSE"
        }
    }

    /// `IS` / `IS NOT` between two values that may be NULL (nil equals nil).
    func nullSafeOperator(equal: Bool) -> String {
        switch kind {
        case .sqlite: equal ? "IS" : "IS NOT"
        case .postgreSQL: equal ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM"
        }
    }

    /// Most arguments one statement may bind; longer lists are bound as one JSON array (SQLite) or
    /// refused (PostgreSQL binds at most 65,535).
    package var largeListThreshold: Int {
        switch kind {
        case .sqlite: SQLiteQueryRenderer.largeListThreshold
        case .postgreSQL: 30_000
        }
    }

    /// `LIMIT … OFFSET …` clauses, and whether each takes an argument.
    package func limitClause(limit: Bool, offset: Bool) -> String? {
        switch (limit, offset, kind) {
        case (true, true, _): "LIMIT ? OFFSET ?"
        case (true, false, _): "LIMIT ?"
        // SQLite has no OFFSET without LIMIT; -1 means no limit.
        case (false, true, .sqlite): "LIMIT -1 OFFSET ?"
        case (false, true, .postgreSQL): "OFFSET ?"
        case (false, false, _): nil
        }
    }

    /// An `ORDER BY` term. `SortDescriptor` puts nil first ascending and last descending, as
    /// SQLite does by itself; PostgreSQL's default is the other way round.
    func orderTerm(_ column: String, ascending: Bool) -> String {
        switch kind {
        case .sqlite: "\(column) \(ascending ? "ASC" : "DESC")"
        case .postgreSQL: "\(column) \(ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")"
        }
    }

    /// The elements of a collection attribute (JSON array text) as rows of one column, `value`.
    func jsonElements(_ source: String, alias: String?) -> String {
        switch kind {
        case .sqlite: "json_each(\(source))\(alias.map { " AS \($0)" } ?? "")"
        case .postgreSQL: "jsonb_array_elements_text(CAST(\(source) AS jsonb)) AS \(alias ?? "j")(value)"
        }
    }

    /// The number of elements of a collection attribute.
    func jsonLength(_ source: String) -> String {
        switch kind {
        case .sqlite: "json_array_length(\(source))"
        case .postgreSQL: "jsonb_array_length(CAST(\(source) AS jsonb))"
        }
    }

    /// Floating-point division. PostgreSQL raises an error where Swift gives an infinity or NaN
    /// (a zero divisor, an overflow), so it is refused there.
    func floatDivision(_ lhs: String, _ rhs: String) throws -> String {
        switch kind {
        case .sqlite: return "(CAST(\(lhs) AS REAL) / \(rhs))"
        case .postgreSQL: throw QueryTranslationError.unsupported("Floating-point division is not rendered for PostgreSQL, which raises errors where Swift gives infinities")
        }
    }

    /// A call of one of the store's `osd_*` functions (SQLite), which have Swift's string
    /// semantics; PostgreSQL has none that agree with Swift on grapheme clusters, so it refuses.
    func stringFunction(_ call: String) throws -> String {
        switch kind {
        case .sqlite: return call
        case .postgreSQL: throw QueryTranslationError.unsupported("String functions with Swift's Character semantics are not rendered for PostgreSQL")
        }
    }

    /// Collection elements read from JSON keep their JSON type in SQLite; PostgreSQL reads them as
    /// text, which compares exactly only with text, so it refuses elements of unknown type.
    func requireUntypedElements() throws {
        guard kind == .postgreSQL else { return }
        throw QueryTranslationError.unsupported("Elements of collection attributes other than strings are not rendered for PostgreSQL")
    }
}
