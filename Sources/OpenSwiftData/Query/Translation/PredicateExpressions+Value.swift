import Foundation

extension PredicateExpressions.Value: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard let converted = QueryValue(converting: value) else {
            throw QueryTranslationError.unsupported("Captured values of type \(QueryTranslationError.typeName(Output.self)) are not translated")
        }
        return .value(converted)
    }
}
