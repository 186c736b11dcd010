import Foundation

extension PredicateExpressions.Arithmetic: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        let queryOperator: QueryArithmeticOperator = switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        }
        return try state.arithmetic(lhs, queryOperator, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.IntDivision: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.arithmetic(lhs, .integerDivide, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.IntRemainder: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.arithmetic(lhs, .remainder, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.FloatDivision: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.arithmetic(lhs, .floatDivide, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.UnaryMinus: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try TranslationState.requireExactArithmetic(on: Output.self)
        return .negate(try state.translate(wrapped))
    }
}

extension TranslationState {
    mutating func arithmetic(_ lhs: some PredicateExpression, _ op: QueryArithmeticOperator, _ rhs: some PredicateExpression, of type: Any.Type) throws -> QueryExpression {
        try Self.requireExactArithmetic(on: type)
        return .arithmetic(try translate(lhs), op, try translate(rhs))
    }

    /// Stores compute in `Int64` and `Double`. That gives Swift's result for the narrower integer
    /// types whenever Swift's own arithmetic does not trap, but not for `Float` (rounded to fewer
    /// bits) nor for `UInt64`/`UInt` (values beyond `Int64`).
    static func requireExactArithmetic(on type: Any.Type) throws {
        let isExact = type == Double.self || (type is any FixedWidthInteger.Type && type != UInt64.self && type != UInt.self)
        guard isExact else {
            throw QueryTranslationError.unsupported("Arithmetic on \(QueryTranslationError.typeName(type)) is not translated")
        }
    }
}
