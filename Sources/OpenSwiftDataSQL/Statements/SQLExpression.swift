import OpenSwiftDataCore

/// A node of the statement tree: it writes itself into a serializer in the serializer's dialect.
package protocol SQLExpression {
    func serialize(to serializer: inout SQLSerializer) throws
}

/// A quoted identifier: a table, a column or an alias.
package struct SQLIdentifier: SQLExpression {
    package var name: String

    package init(_ name: String) {
        self.name = name
    }

    package func serialize(to serializer: inout SQLSerializer) {
        serializer.write(identifier: name)
    }
}

/// A column, qualified by its table or alias when one is given: `"Trip"."name"`.
package struct SQLColumn: SQLExpression {
    package var name: String
    package var table: String?

    package init(_ name: String, table: String? = nil) {
        self.name = name
        self.table = table
    }

    package func serialize(to serializer: inout SQLSerializer) {
        if let table {
            serializer.write(identifier: table)
            serializer.write(".")
        }
        serializer.write(identifier: name)
    }
}

/// SQL text the store wrote from its schema (never from values): an operator, a keyword, a
/// rendered condition without arguments.
package struct SQLRaw: SQLExpression {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }

    package func serialize(to serializer: inout SQLSerializer) {
        serializer.write(text)
    }
}

/// A placeholder bound to a value.
package struct SQLBind: SQLExpression {
    package var value: SQLValue

    package init(_ value: SQLValue) {
        self.value = value
    }

    package func serialize(to serializer: inout SQLSerializer) {
        serializer.bind(value)
    }
}

/// A placeholder whose value is given each time the prepared statement runs.
package struct SQLParameter: SQLExpression {
    package init() {}

    package func serialize(to serializer: inout SQLSerializer) {
        serializer.parameter()
    }
}

/// A constant from the schema, written as a literal in the dialect's spelling.
package enum SQLLiteral: SQLExpression {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A name from the schema (an entity's): values are always bound.
    case string(String)

    package func serialize(to serializer: inout SQLSerializer) {
        switch self {
        case .null: serializer.write("NULL")
        case .bool(let value): serializer.write(serializer.dialect.literal(value))
        case .integer(let value): serializer.write(String(value))
        case .string(let name): serializer.write(serializer.dialect.stringLiteral(name))
        }
    }
}

/// `lhs op rhs`, parenthesised when `grouped`.
package struct SQLBinary: SQLExpression {
    package var lhs: any SQLExpression
    package var op: String
    package var rhs: any SQLExpression

    package init(_ lhs: any SQLExpression, _ op: String, _ rhs: any SQLExpression) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        try lhs.serialize(to: &serializer)
        serializer.write(" \(op) ")
        try rhs.serialize(to: &serializer)
    }

    /// Every condition, joined by `AND`; nil for none.
    package static func all(_ conditions: [any SQLExpression]) -> (any SQLExpression)? {
        guard var combined = conditions.first else { return nil }
        for condition in conditions.dropFirst() { combined = SQLBinary(combined, "AND", condition) }
        return combined
    }
}

/// `( expression )`.
package struct SQLGroup: SQLExpression {
    package var expression: any SQLExpression

    package init(_ expression: any SQLExpression) {
        self.expression = expression
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write("(")
        try expression.serialize(to: &serializer)
        serializer.write(")")
    }
}

/// `name(arguments…)`.
package struct SQLFunction: SQLExpression {
    package var name: String
    package var arguments: [any SQLExpression]

    package init(_ name: String, _ arguments: [any SQLExpression]) {
        self.name = name
        self.arguments = arguments
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write(name + "(")
        try serializer.write(arguments)
        serializer.write(")")
    }
}

/// `expression` is one of `list`'s values (``SQLValue/integers(_:)`` or ``SQLValue/texts(_:)``):
/// the list bound as one value where the dialect can (``SQLDialect/listMembership(_:_:)``), else
/// each of its values bound in `IN (…)`.
package struct SQLListMembership: SQLExpression {
    package var expression: any SQLExpression
    package var list: SQLValue

    package init(_ expression: any SQLExpression, _ list: SQLValue) {
        self.expression = expression
        self.list = list
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        let dialect = serializer.dialect
        // The element first, numbered in place: the dialect writes the list after it.
        var element = SQLSerializer(dialect: dialect, after: serializer.lastPlaceholder)
        try expression.serialize(to: &element)
        if let membership = dialect.listMembership(element.sql, dialect.placeholder(element.nextPlaceholderPosition)) {
            serializer.write(membership, binding: element.binds + [list])
            return
        }
        serializer.write(element.sql, binding: element.binds)
        serializer.write(" IN (")
        let values: [SQLValue] = switch list {
        case .integers(let keys): keys.map(SQLValue.integer)
        case .texts(let texts): texts.map(SQLValue.text)
        default: [list]
        }
        for (index, value) in values.enumerated() {
            if index > 0 { serializer.write(", ") }
            serializer.bind(value)
        }
        serializer.write(")")
    }
}

/// A subquery: `(SELECT …)`.
package struct SQLSubquery: SQLExpression {
    package var select: SQLSelect

    package init(_ select: SQLSelect) {
        self.select = select
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        serializer.write("(")
        try select.serialize(to: &serializer)
        serializer.write(")")
    }
}

/// A condition the query renderer writes (``SQLiteQueryRenderer``), its placeholders numbered in
/// place and its arguments bound as `bind` converts them.
package struct SQLQueryCondition: SQLExpression {
    package var render: (_ firstPlaceholder: Int) throws -> SQLFragment
    package var bind: (QueryValue) throws -> SQLValue

    package init(render: @escaping (_ firstPlaceholder: Int) throws -> SQLFragment, bind: @escaping (QueryValue) throws -> SQLValue) {
        self.render = render
        self.bind = bind
    }

    package func serialize(to serializer: inout SQLSerializer) throws {
        try serializer.write(try render(serializer.nextPlaceholderPosition), binding: bind)
    }
}
