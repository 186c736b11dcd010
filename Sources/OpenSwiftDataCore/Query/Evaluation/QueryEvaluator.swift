import Foundation

/// Evaluates a ``QueryExpression`` on one row, with exactly the result Swift's
/// `Predicate.evaluate` gives on the model: optionals compare as Swift optionals, NaN is unequal
/// to everything, strings compare as Swift `String`s, `&&`/`||` stop early.
///
/// ```swift
/// let evaluator = QueryEvaluator(identifier: snapshot.persistentIdentifier) { path in
///     try snapshot.queryValue(at: path)   // the row's values, already in QueryValue form
/// }
/// if try evaluator.matches(filter) { … }
/// ```
///
/// Row values must have the kind the schema gives them (an `Int` attribute is `.integer`, a
/// `Double` one `.double`); a path through a nil relationship reads `.null`.
public struct QueryEvaluator {
    private let identifier: PersistentIdentifier
    private let property: (QueryPropertyPath) throws -> QueryValue
    private let elementProperty: (PersistentIdentifier, QueryPropertyPath) throws -> QueryValue

    /// An evaluator over one row.
    ///
    /// - Parameters:
    ///   - identifier: The row's identifier, what `persistentModelID` reads in the filter.
    ///   - property: The row's value at a property path.
    ///   - elementProperty: A property of a related model, for elements of to-many
    ///     relationships; without it such expressions throw, and the context evaluates the predicate.
    public init(identifier: PersistentIdentifier, property: @escaping (QueryPropertyPath) throws -> QueryValue,
                elementProperty: @escaping (PersistentIdentifier, QueryPropertyPath) throws -> QueryValue = { _, path in
                    throw QueryEvaluationError(.unreadableElement, "The property \(path) of a related model cannot be read here")
                }) {
        self.identifier = identifier
        self.property = property
        self.elementProperty = elementProperty
    }

    /// Whether the row passes `filter`.
    public func matches(_ filter: QueryExpression) throws -> Bool {
        try bool(filter, [:])
    }

    /// The value of an expression for the row.
    public func evaluate(_ expression: QueryExpression) throws -> QueryValue {
        try evaluate(expression, [:])
    }

    /// `elements` holds the collection elements bound by enclosing `collectionAny`/`collectionAll`.
    private func evaluate(_ expression: QueryExpression, _ elements: [Int: QueryValue]) throws -> QueryValue {
        switch expression {
        case .value(let value):
            return value
        case .property(let path):
            return try property(path)
        case .identifier:
            return .identifier(identifier)
        case .variable(let number):
            guard let value = elements[number] else {
                throw QueryEvaluationError(.undefinedVariable, "Variable \(number) is used outside the collection test that binds it")
            }
            return value
        case let .elementProperty(number, path):
            let element = try evaluate(.variable(number), elements)
            guard case .identifier(let related) = element else {
                throw QueryEvaluationError.typeMismatch("a related model", element)
            }
            return try elementProperty(related, path)
        case let .comparison(lhs, op, rhs, _):
            let lhs = try evaluate(lhs, elements)
            return .bool(try Self.compare(lhs, op, try evaluate(rhs, elements)))
        case let .and(lhs, rhs):
            return .bool(try bool(lhs, elements) && bool(rhs, elements))
        case let .or(lhs, rhs):
            return .bool(try bool(lhs, elements) || bool(rhs, elements))
        case .not(let operand):
            return .bool(!(try bool(operand, elements)))
        case let .conditional(test, then, otherwise):
            return try evaluate(try bool(test, elements) ? then : otherwise, elements)
        case let .isEntity(operand, entityName):
            guard case .identifier(let model) = try evaluate(operand, elements) else { return .bool(false) }
            return .bool(EntityRegistry.entity(model.entityName, isOrInheritsFrom: entityName))
        case let .arithmetic(lhs, op, rhs):
            let lhs = try evaluate(lhs, elements)
            return try Self.arithmetic(lhs, op, try evaluate(rhs, elements))
        case .negate(let operand):
            return try Self.negate(try evaluate(operand, elements))
        case .forceUnwrap(let operand):
            let value = try evaluate(operand, elements)
            guard value != .null else {
                throw QueryEvaluationError(.forceUnwrapFailure, "Force-unwrapped a nil value")
            }
            return value
        case let .coalesce(operand, fallback):
            let value = try evaluate(operand, elements)
            return value == .null ? try evaluate(fallback, elements) : value
        case let .stringContains(string, other, options):
            let string = try self.string(string, elements)
            return .bool(QueryStringSemantics.contains(string, try self.string(other, elements), options: options))
        case let .startsWith(string, prefix):
            let string = try self.string(string, elements)
            return .bool(QueryStringSemantics.starts(string, with: try self.string(prefix, elements)))
        case let .stringCompare(string, other, options):
            let string = try self.string(string, elements)
            return .integer(Int64(QueryStringSemantics.compare(string, try self.string(other, elements), options: options).rawValue))
        case let .count(operand, kind):
            return .integer(Int64(try count(operand, kind, elements)))
        case let .isEmpty(operand, kind):
            return .bool(try count(operand, kind, elements) == 0)
        case let .collectionContains(collection, element, _):
            let collection = try array(collection, elements)
            let element = try evaluate(element, elements)
            return .bool(try collection.contains { try Self.isEqual($0, element) })
        case let .in(element, list, _):
            let element = try evaluate(element, elements)
            return .bool(try list.contains { try Self.isEqual($0, element) })
        case let .collectionAny(collection, variable, test):
            return .bool(try array(collection, elements).contains { try bool(test, elements.merging([variable: $0]) { $1 }) })
        case let .collectionAll(collection, variable, test):
            return .bool(try array(collection, elements).allSatisfy { try bool(test, elements.merging([variable: $0]) { $1 }) })
        }
    }

    private func bool(_ expression: QueryExpression, _ elements: [Int: QueryValue]) throws -> Bool {
        let value = try evaluate(expression, elements)
        guard case .bool(let result) = value else { throw QueryEvaluationError.typeMismatch("a bool", value) }
        return result
    }

    private func string(_ expression: QueryExpression, _ elements: [Int: QueryValue]) throws -> String {
        let value = try evaluate(expression, elements)
        guard case .string(let result) = value else { throw QueryEvaluationError.typeMismatch("a string", value) }
        return result
    }

    private func array(_ expression: QueryExpression, _ elements: [Int: QueryValue]) throws -> [QueryValue] {
        let value = try evaluate(expression, elements)
        guard case .array(let result) = value else { throw QueryEvaluationError.typeMismatch("an array", value) }
        return result
    }

    /// `Character`s of a string, elements of a collection.
    private func count(_ expression: QueryExpression, _ kind: QueryValueKind, _ elements: [Int: QueryValue]) throws -> Int {
        kind == .string ? try string(expression, elements).count : try array(expression, elements).count
    }
}
