import Foundation

extension PredicateExpressions.TypeCheck: QueryTranslatable {
    /// `$0 is BusinessTrip`: whether the fetched model's entity is `BusinessTrip` or one of its
    /// subentities.
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try modelCast(of: input, to: Desired.self, &state).test
    }
}

/// A conditional cast of a model to a model class, which `?.` reads under the cast's test.
protocol QueryModelCast {
    func castOperand(_ state: inout TranslationState) throws -> (model: QueryOperand, test: QueryExpression)
}

extension PredicateExpressions.ConditionalCast: QueryOperandTranslatable, QueryModelCast {
    /// `$0 as? BusinessTrip` as a value: the model when it is one, else nil. Read through `?.`
    /// (`($0 as? BusinessTrip)?.perdiem`), see `PredicateExpressions.OptionalFlatMap`.
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand {
        let (model, test) = try castOperand(&state)
        return .expression(.conditional(test, then: state.expression(for: model), else: .value(.null)))
    }

    func castOperand(_ state: inout TranslationState) throws -> (model: QueryOperand, test: QueryExpression) {
        try modelCast(of: input, to: Desired.self, &state)
    }
}

/// The fetched model, and the test that it is of `desired`'s entity or a subentity's.
private func modelCast<Input: PredicateExpression>(of input: Input, to desired: Any.Type, _ state: inout TranslationState) throws
    -> (model: QueryOperand, test: QueryExpression) {
    guard let modelType = desired as? any PersistentModel.Type else {
        throw QueryTranslationError.unsupported("Casts to \(QueryTranslationError.typeName(desired)) are not translated; casts of the fetched model to a model class are")
    }
    let model = try state.operand(input)
    guard model == .model([]) else {
        throw QueryTranslationError.unsupported("`is` and `as?` are translated on the fetched model only")
    }
    return (model, .isEntity(.identifier, entityName: Schema.entityName(for: modelType)))
}
