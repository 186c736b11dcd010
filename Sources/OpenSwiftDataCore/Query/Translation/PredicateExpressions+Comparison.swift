import Foundation

extension PredicateExpressions.Equal: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.comparison(lhs, .equal, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.comparison(lhs, .notEqual, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.Comparison: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard isOrderedByQueryValue(LHS.Output.self) else {
            throw QueryTranslationError.unsupported("Ordering values of type \(QueryTranslationError.typeName(LHS.Output.self)) is not translated")
        }
        let queryOperator: QueryComparisonOperator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
        return try state.comparison(lhs, queryOperator, rhs, of: LHS.Output.self)
    }
}

extension TranslationState {
    mutating func comparison(_ lhs: some PredicateExpression, _ op: QueryComparisonOperator, _ rhs: some PredicateExpression, of type: Any.Type) throws -> QueryExpression {
        .comparison(try translate(lhs), op, try translate(rhs), type: try valueType(of: type))
    }
}
