import Foundation

/// The state one translation threads through the nodes: the schema lookup, what each predicate
/// variable stands for, and the numbers given to collection elements.
struct TranslationState {
    let resolve: @Sendable (AnyKeyPath) -> QueryKeyPathResolution?
    private var bindings: [PredicateExpressions.VariableID: QueryOperand] = [:]
    private var lastVariable = 0

    init(resolve: @escaping @Sendable (AnyKeyPath) -> QueryKeyPathResolution?) {
        self.resolve = resolve
    }

    mutating func translate(_ expression: some PredicateExpression) throws -> QueryExpression {
        guard let node = expression as? any QueryTranslatable else {
            throw QueryTranslationError.unsupported(node: type(of: expression))
        }
        return try node.translate(&self)
    }

    mutating func operand(_ expression: some PredicateExpression) throws -> QueryOperand {
        guard let node = expression as? any QueryOperandTranslatable else {
            return .expression(try translate(expression))
        }
        return try node.translateOperand(&self)
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
        bindings[variable] = operand
    }

    func binding(of variable: PredicateExpressions.VariableID) -> QueryOperand? {
        bindings[variable]
    }

    /// A fresh number for a collection element, starting at 1.
    mutating func newVariable() -> Int {
        lastVariable += 1
        return lastVariable
    }

    func valueType(of type: Any.Type) throws -> QueryValueType {
        guard let valueType = QueryValueType(swiftType: type) else {
            throw QueryTranslationError.unsupported("Values of type \(QueryTranslationError.typeName(type)) are not translated")
        }
        return valueType
    }
}
