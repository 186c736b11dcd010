import Foundation

/// A `PredicateExpressions` node the translator understands. Each node conforms in a small
/// extension, grouped by concern in the `PredicateExpressions+…` files.
protocol QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression
}

/// What an expression stands for while translating: a model (the fetched one, or one reached
/// through relationships) or a value.
enum QueryOperand: Equatable {
    /// The fetched model (`[]`) or the model the relationships on this path lead to.
    case model([String])
    /// The model bound to a collection variable (an element of a to-many relationship), or the
    /// model the relationships on this path lead to from it.
    case element(Int, [String])
    case expression(QueryExpression)
}

/// A node that can stand for a model as well as a value: variables, key paths, `!` and `?.`,
/// so that `$0.trip?.name` becomes the path `["trip", "name"]`.
protocol QueryOperandTranslatable: QueryTranslatable {
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand
}

extension QueryOperandTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        try state.expression(for: translateOperand(&state))
    }
}
