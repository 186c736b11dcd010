/// Why ``QueryEvaluator`` could not evaluate an expression. Where Swift's own predicate
/// evaluation throws or traps (force-unwrapping nil, integer overflow, division by zero), the
/// evaluator throws instead. The message never contains row values.
public struct QueryEvaluationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// `!` met nil; `Predicate.evaluate` throws `PredicateError.forceUnwrapFailure` here.
        case forceUnwrapFailure
        /// Integer arithmetic overflowed, where Swift traps.
        case arithmeticOverflow
        /// Integer division or remainder by zero, where Swift traps.
        case divisionByZero
        /// A value was not of the kind the expression needs: the row and the expression disagree.
        case typeMismatch
        /// A ``QueryExpression/variable(_:)`` outside the collection test that binds it.
        case undefinedVariable
        /// A ``QueryExpression/elementProperty(_:_:)`` where the evaluator cannot read related models.
        case unreadableElement
    }

    /// What went wrong.
    public var kind: Kind
    /// What the evaluator met, without any row value.
    public var message: String

    /// Creates an error of this kind with a message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and the message.
    public var description: String { "\(kind): \(message)" }

    package static func typeMismatch(_ expected: String, _ value: QueryValue) -> QueryEvaluationError {
        QueryEvaluationError(.typeMismatch, "Expected \(expected), found a value of kind \(value.caseName); check that the row's values match the schema")
    }
}

extension QueryValue {
    /// The case's name, for messages that must not show the value itself.
    var caseName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .uuid: "uuid"
        case .data: "data"
        case .identifier: "identifier"
        case .array: "array"
        }
    }
}
