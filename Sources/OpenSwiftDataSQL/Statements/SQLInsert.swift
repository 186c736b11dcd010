/// `INSERT INTO table (columns) VALUES (…), (…)` or `… SELECT …`, with what to do when a row
/// meets an existing one on a key, and what to return.
///
/// ```swift
/// SQLInsert(table: "Trip", columns: ["Z_PK", "name"], rows: [[SQLParameter(), SQLParameter()]],
///           conflict: .update(key: ["Z_PK"], columns: ["name"]))
/// // SQLite:  INSERT INTO "Trip" ("Z_PK", "name") VALUES (?, ?) ON CONFLICT("Z_PK") DO UPDATE SET "name" = excluded."name"
/// ```
package struct SQLInsert: SQLExpression {
    /// What a row that meets an existing one on a key does.
    package enum Conflict {
        /// Nothing: the existing row stays (a join table's pair written twice).
        case ignore
        /// The existing row takes the inserted one's values in `columns`, and `assignments` besides
        /// (a hierarchy's row taking another class's entity, say). No columns and no assignments
        /// leave the row as it is.
        case update(key: [String], columns: [String], assignments: [SQLAssignment] = [])
    }

    package var table: String
    package var columns: [String]
    /// The rows of a `VALUES` list; ignored when `select` is set.
    package var rows: [[any SQLExpression]]
    /// The rows an `INSERT … SELECT` inserts.
    package var select: SQLSelect?
    package var conflict: Conflict?
    package var returning: [any SQLExpression]

    package init(table: String, columns: [String], rows: [[any SQLExpression]] = [], select: SQLSelect? = nil,
                 conflict: Conflict? = nil, returning: [any SQLExpression] = []) {
        self.table = table
        self.columns = columns
        self.rows = rows
        self.select = select
        self.conflict = conflict
        self.returning = returning
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        let syntax = serializer.dialect.upsertSyntax
        if case .ignore = conflict, syntax == .onDuplicateKey {
            serializer.write("INSERT IGNORE INTO ")
        } else {
            serializer.write("INSERT INTO ")
        }
        serializer.write(identifier: table)
        serializer.write(" (")
        try serializer.write(columns.map(SQLIdentifier.init))
        serializer.write(")")
        if let select {
            serializer.write(" ")
            try select.serialize(to: &serializer)
        } else {
            serializer.write(" VALUES ")
            for (index, row) in rows.enumerated() {
                if index > 0 { serializer.write(", ") }
                serializer.write("(")
                try serializer.write(row)
                serializer.write(")")
            }
        }
        try serializeConflict(syntax, to: &serializer)
        try SQLReturning.serialize(returning, to: &serializer)
    }

    private func serializeConflict(_ syntax: SQLUpsertSyntax, to serializer: inout SQLSerializer) throws {
        switch (conflict, syntax) {
        case (nil, _), (.ignore, .onDuplicateKey):
            return
        case (.ignore, .onConflict):
            serializer.write(" ON CONFLICT DO NOTHING")
        case let (.update(key, columns, assignments), .onConflict):
            serializer.write(" ON CONFLICT(")
            try serializer.write(key.map(SQLIdentifier.init))
            let all = columns.map { SQLAssignment($0, SQLExcluded($0)) } + assignments
            guard !all.isEmpty else { return serializer.write(") DO NOTHING") }
            serializer.write(") DO UPDATE SET ")
            try serializer.write(all)
        case let (.update(key, columns, assignments), .onDuplicateKey):
            // A no-op update keeps the row as it is: MySQL has no DO NOTHING.
            let all = columns.map { SQLAssignment($0, SQLExcluded($0)) } + assignments
            serializer.write(" ON DUPLICATE KEY UPDATE ")
            try serializer.write(all.isEmpty ? [SQLAssignment(key[0], SQLColumn(key[0]))] : all)
        }
    }
}

/// `column = value`, in an update's `SET` or an upsert's.
package struct SQLAssignment: SQLExpression {
    package var column: String
    package var value: any SQLExpression

    package init(_ column: String, _ value: any SQLExpression) {
        self.column = column
        self.value = value
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write(identifier: column)
        serializer.write(" = ")
        try value.serialize(to: &serializer)
    }
}

/// The value an upsert was inserting in `column`: `excluded."c"`, or `VALUES(c)` in MySQL's spelling.
package struct SQLExcluded: SQLExpression {
    package var column: String

    package init(_ column: String) {
        self.column = column
    }

    package func serialize(to serializer: inout SQLSerializer) {
        switch serializer.dialect.upsertSyntax {
        case .onConflict:
            serializer.write("excluded.")
            serializer.write(identifier: column)
        case .onDuplicateKey:
            serializer.write("VALUES(")
            serializer.write(identifier: column)
            serializer.write(")")
        }
    }
}

/// ` RETURNING …`, refused by a dialect without it (``SQLDialect/supportsReturning``).
enum SQLReturning {
    static func serialize(_ returning: [any SQLExpression], to serializer: inout SQLSerializer) throws {
        guard !returning.isEmpty else { return }
        guard serializer.dialect.supportsReturning else {
            throw SQLRenderError("\(serializer.dialect.name) has no RETURNING clause; read the rows in a statement of their own")
        }
        serializer.write(" RETURNING ")
        try serializer.write(returning)
    }
}
