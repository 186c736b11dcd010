import OpenSwiftDataCore

/// Writes statement nodes as one dialect's SQL: the text, and the values of its placeholders in
/// order. Each placeholder is numbered as it is written, so pieces compose without their text
/// being searched for placeholders afterwards.
///
/// ```swift
/// let delete = SQLDelete(table: "Trip", where: SQLListMembership(SQLColumn(EntityTableSchema.keyColumn), .integers([3, 4])))
/// let statement = try SQLSerializer.render(delete, in: .postgreSQL)
/// // DELETE FROM "Trip" WHERE "Z_PK" = ANY($1), binds [.integers([3, 4])]
/// ```
package struct SQLSerializer {
    package let dialect: any SQLDialect
    package private(set) var sql = ""
    /// The values of the placeholders written with ``bind(_:)``.
    package private(set) var binds: [SQLValue] = []
    /// The position of the last placeholder written: bound values and ``parameter()``s, whose
    /// values come when the statement runs.
    package private(set) var lastPlaceholder: Int

    /// A serializer whose first placeholder takes the position after `lastPlaceholder`.
    package init(dialect: any SQLDialect, after lastPlaceholder: Int = 0) {
        self.dialect = dialect
        self.lastPlaceholder = lastPlaceholder
    }

    /// The statement a node renders to in `dialect`.
    package static func render(_ node: some SQLExpression, in dialect: any SQLDialect) throws -> SQLStatementText {
        var serializer = SQLSerializer(dialect: dialect)
        try node.serialize(to: &serializer)
        return SQLStatementText(sql: serializer.sql, binds: serializer.binds)
    }

    package mutating func write(_ text: String) {
        sql += text
    }

    package mutating func write(identifier: String) {
        sql += dialect.quotedIdentifier(identifier)
    }

    /// Writes the nodes with `separator` between them.
    package mutating func write(_ nodes: [any SQLExpression], separator: String = ", ") throws {
        for (index, node) in nodes.enumerated() {
            if index > 0 { sql += separator }
            try node.serialize(to: &self)
        }
    }

    /// ` WHERE filter`, when there is one.
    package mutating func write(where filter: (any SQLExpression)?) throws {
        guard let filter else { return }
        sql += " WHERE "
        try filter.serialize(to: &self)
    }

    /// A placeholder bound to `value`.
    package mutating func bind(_ value: SQLValue) {
        binds.append(value)
        sql += nextPlaceholder()
    }

    /// The text of a placeholder bound to `value`, for a clause the dialect writes around it
    /// (``SQLDialect/pagingClause(limit:offset:)``): the caller writes it, in binding order.
    package mutating func placeholder(binding value: SQLValue) -> String {
        binds.append(value)
        return nextPlaceholder()
    }

    /// A placeholder whose value is given each time the statement runs (a row of an insert that
    /// runs once per row).
    package mutating func parameter() {
        sql += nextPlaceholder()
    }

    /// The position the next placeholder takes, counted from 1.
    package var nextPlaceholderPosition: Int { lastPlaceholder + 1 }

    private mutating func nextPlaceholder() -> String {
        lastPlaceholder += 1
        return dialect.placeholder(lastPlaceholder)
    }

    /// A fragment the query renderer wrote from ``nextPlaceholderPosition`` on, its arguments bound
    /// as `bind` converts them.
    package mutating func write(_ fragment: SQLFragment, binding bind: (QueryValue) throws -> SQLValue) throws {
        try write(fragment.sql, binding: fragment.arguments.map(bind))
    }

    /// Text written from ``nextPlaceholderPosition`` on, whose placeholders are bound to `values`
    /// in order.
    package mutating func write(_ text: String, binding values: [SQLValue]) {
        sql += text
        binds += values
        lastPlaceholder += values.count
    }
}

/// A rendered statement: its SQL and the values of its placeholders, in order.
package struct SQLStatementText: Sendable, Hashable {
    package var sql: String
    package var binds: [SQLValue]

    package init(sql: String, binds: [SQLValue] = []) {
        self.sql = sql
        self.binds = binds
    }
}

/// Refused by a dialect: a statement needs a clause the dialect does not have.
package struct SQLRenderError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
