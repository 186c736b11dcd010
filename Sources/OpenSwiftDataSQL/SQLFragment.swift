import OpenSwiftDataCore

/// SQL text with its placeholders' arguments, in order.
///
/// Arguments stay ``QueryValue``s: the store binds each as it stores that kind (see
/// ``SQLiteQueryRenderer`` for what the SQL assumes about those representations).
public struct SQLFragment: Sendable, Hashable {
    /// The SQL text, with a placeholder for each argument.
    public var sql: String
    /// The values bound to the placeholders, in order.
    public var arguments: [QueryValue]

    /// Creates a fragment of SQL text and its arguments.
    public init(_ sql: String, arguments: [QueryValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// The arguments a rendering collects, in the order their placeholders appear.
struct SQLiteRenderState {
    let dialect: any SQLDialect
    /// The position of the first placeholder the rendering writes.
    let firstPlaceholder: Int
    private(set) var arguments: [QueryValue] = []
    /// Elements of to-many relationships are rows, not `json_each` values: their alias and rows.
    var elementRows: [Int: (alias: String, rows: SQLiteRelatedRows)] = [:]

    init(dialect: any SQLDialect, firstPlaceholder: Int) {
        self.dialect = dialect
        self.firstPlaceholder = firstPlaceholder
    }

    /// The placeholder the next bound value gets.
    var nextPlaceholder: String { dialect.placeholder(firstPlaceholder + arguments.count) }

    /// The placeholder of `value`, numbered as the dialect numbers them.
    mutating func bind(_ value: QueryValue) -> String {
        arguments.append(value)
        return dialect.placeholder(firstPlaceholder + arguments.count - 1)
    }
}
