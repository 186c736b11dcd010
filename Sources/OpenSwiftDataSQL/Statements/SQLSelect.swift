/// `SELECT columns FROM table [AS alias] [WHERE …] [ORDER BY …] [paging]`.
///
/// ```swift
/// SQLSelect(columns: [SQLColumn("Z_PK")], from: "Trip", where: SQLBinary(SQLColumn("name"), "=", SQLBind(.text("Paris"))), limit: 1)
/// // PostgreSQL: SELECT "Z_PK" FROM "Trip" WHERE "name" = $1 LIMIT $2
/// ```
package struct SQLSelect: SQLExpression {
    package var columns: [any SQLExpression]
    /// The table, or nil for a select of values alone (`SELECT 1`).
    package var from: String?
    package var alias: String?
    package var filter: (any SQLExpression)?
    package var orderBy: [any SQLExpression]
    /// Bound after every other placeholder of the select, in the dialect's order.
    package var limit: Int?
    package var offset: Int?

    package init(columns: [any SQLExpression], from: String? = nil, as alias: String? = nil, where filter: (any SQLExpression)? = nil,
                 orderBy: [any SQLExpression] = [], limit: Int? = nil, offset: Int? = nil) {
        self.columns = columns
        self.from = from
        self.alias = alias
        self.filter = filter
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write("SELECT ")
        try serializer.write(columns)
        if let from {
            serializer.write(" FROM ")
            serializer.write(identifier: from)
            if let alias {
                serializer.write(" AS ")
                serializer.write(identifier: alias)
            }
        }
        try serializer.write(where: filter)
        if !orderBy.isEmpty {
            serializer.write(" ORDER BY ")
            try serializer.write(orderBy)
        }
        let dialect = serializer.dialect
        if let paging = dialect.pagingClause(limit: limit, offset: offset, bind: { serializer.placeholder(binding: .integer(Int64($0))) }) {
            serializer.write(" " + paging)
        }
    }
}

/// `UPDATE table SET … [WHERE …] [RETURNING …]`.
package struct SQLUpdate: SQLExpression {
    package var table: String
    package var assignments: [SQLAssignment]
    package var filter: (any SQLExpression)?
    package var returning: [any SQLExpression]

    package init(table: String, set assignments: [SQLAssignment], where filter: (any SQLExpression)? = nil, returning: [any SQLExpression] = []) {
        self.table = table
        self.assignments = assignments
        self.filter = filter
        self.returning = returning
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write("UPDATE ")
        serializer.write(identifier: table)
        serializer.write(" SET ")
        try serializer.write(assignments)
        try serializer.write(where: filter)
        try SQLReturning.serialize(returning, to: &serializer)
    }
}

/// `DELETE FROM table [WHERE …] [RETURNING …]`.
package struct SQLDelete: SQLExpression {
    package var table: String
    package var filter: (any SQLExpression)?
    package var returning: [any SQLExpression]

    package init(table: String, where filter: (any SQLExpression)? = nil, returning: [any SQLExpression] = []) {
        self.table = table
        self.filter = filter
        self.returning = returning
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write("DELETE FROM ")
        serializer.write(identifier: table)
        try serializer.write(where: filter)
        try SQLReturning.serialize(returning, to: &serializer)
    }
}
