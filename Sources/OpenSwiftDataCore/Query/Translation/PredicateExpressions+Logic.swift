import Foundation

extension PredicateExpressions.Conjunction: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .and(try state.translate(lhs), try state.translate(rhs))
    }
}

extension PredicateExpressions.Disjunction: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .or(try state.translate(lhs), try state.translate(rhs))
    }
}

extension PredicateExpressions.Negation: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .not(try state.translate(wrapped))
    }
}

extension PredicateExpressions.Conditional: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .conditional(try state.translate(test), then: try state.translate(trueBranch), else: try state.translate(falseBranch))
    }
}
