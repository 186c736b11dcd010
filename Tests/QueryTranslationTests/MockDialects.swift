import OpenSwiftData

/// A deliberately odd dialect, so that nothing the statement nodes or the renderer write is
/// SQLite's or PostgreSQL's by accident: backtick identifiers, named placeholders, the offset
/// before the limit, MySQL's upsert, no `RETURNING`, JSON lists through `MEMBER OF`.
struct OddDialect: SQLDialect {
    var name: String { "odd" }

    func placeholder(_ position: Int) -> String { ":p\(position)" }

    func quotedIdentifier(_ identifier: String) -> String {
        "`" + identifier.split(separator: "`", omittingEmptySubsequences: false).joined(separator: "``") + "`"
    }

    func literal(_ value: Bool) -> String { value ? "YES" : "NO" }

    var nullSafeOperators: (equal: String, notEqual: String) { ("<=>", "NOT <=>") }

    func pagingClause(limit: Int?, offset: Int?, bind: (Int) -> String) -> String? {
        switch (limit, offset) {
        case let (limit?, offset?): "LIMIT \(bind(offset)), \(bind(limit))"
        case let (limit?, nil): "LIMIT \(bind(limit))"
        case let (nil, offset?): "OFFSET \(bind(offset)) ROWS"
        case (nil, nil): nil
        }
    }

    var largeListThreshold: Int { 2 }

    func listMembership(_ expression: String, _ placeholder: String) -> String? { "\(expression) MEMBER OF (\(placeholder))" }

    var upsertSyntax: SQLUpsertSyntax { .onDuplicateKey }

    func typeName(_ type: ColumnType) -> String {
        switch type {
        case .integer: "INT64"
        case .smallInteger: "INT16"
        case .real: "FLOAT8"
        case .boolean: "BOOL"
        case .text, .codePointText, .untyped: "STRING"
        case .blob: "BYTES"
        case .uuid: "UUID"
        case .timestamp: "TIMESTAMP"
        }
    }
}

/// A dialect that names only what has no default: every other spelling is the protocol's.
struct PlainDialect: SQLDialect {
    var name: String { "plain" }

    func placeholder(_ position: Int) -> String { "@\(position)" }

    func typeName(_ type: ColumnType) -> String { "\(type)".uppercased() }
}
