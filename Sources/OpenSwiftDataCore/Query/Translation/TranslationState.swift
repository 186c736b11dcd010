import Foundation

/// The state one translation threads through the nodes: the schema lookup, what each predicate
/// variable stands for, and the numbers given to collection elements.
struct TranslationState {
    let resolve: @Sendable (AnyKeyPath) -> QueryKeyPathResolution?
    /// A few pairs, not a dictionary: a predicate binds one variable per closure, and a new
    /// dictionary for each translation costs more than comparing a few pairs.
    private var bindings: [(variable: PredicateExpressions.VariableID, operand: QueryOperand)] = []
    private var lastVariable = 0

    init(resolve: @escaping @Sendable (AnyKeyPath) -> QueryKeyPathResolution?) {
        self.resolve = resolve
    }

    mutating func translate<E: PredicateExpression>(_ expression: E) throws -> QueryExpression {
        guard let node = QueryNodeKinds.of(E.self).translatable else {
            throw QueryTranslationError.unsupported(node: E.self)
        }
        return try node.translate(node: expression, &self)
    }

    mutating func operand<E: PredicateExpression>(_ expression: E) throws -> QueryOperand {
        guard let node = QueryNodeKinds.of(E.self).operand else {
            return .expression(try translate(expression))
        }
        return try node.translateOperand(node: expression, &self)
    }

    /// A model used as a value is its identifier: models compare by identity.
    func expression(for operand: QueryOperand) -> QueryExpression {
        switch operand {
        case .model([]): .identifier
        case .model(let path): .property(QueryPropertyPath(path))
        case .element(let number, []): .variable(number)
        case .element(let number, let path): .elementProperty(number, QueryPropertyPath(path))
        case .expression(let expression): expression
        }
    }

    mutating func bind(_ variable: PredicateExpressions.VariableID, to operand: QueryOperand) {
        if let index = bindings.firstIndex(where: { $0.variable == variable }) {
            bindings[index].operand = operand
        } else {
            bindings.append((variable, operand))
        }
    }

    func binding(of variable: PredicateExpressions.VariableID) -> QueryOperand? {
        bindings.first { $0.variable == variable }?.operand
    }

    /// A fresh number for a collection element, starting at 1.
    mutating func newVariable() -> Int {
        lastVariable += 1
        return lastVariable
    }

    /// Types' value types, worked out once: each asks several conformance questions of the runtime,
    /// and a predicate asks for each of its nodes.
    private static let valueTypes = IdentityCache<QueryValueType?>(limit: 4096)

    func valueType(of type: Any.Type) throws -> QueryValueType {
        guard let valueType = Self.valueTypes.value(for: type, { QueryValueType(swiftType: $0) }) else {
            throw QueryTranslationError.unsupported("Values of type \(QueryTranslationError.typeName(type)) are not translated")
        }
        return valueType
    }
}
