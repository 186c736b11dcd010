import Foundation

extension PredicateExpressions.CollectionContainsCollection: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard Base.Output.self == String.self, Other.Output.self == String.self else {
            throw QueryTranslationError.unsupported("contains(_:) on \(QueryTranslationError.typeName(Base.Output.self)) is not translated")
        }
        return .stringContains(try state.translate(base), try state.translate(other), options: [])
    }
}

extension PredicateExpressions.SequenceStartsWith: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
            throw QueryTranslationError.unsupported("starts(with:) on \(QueryTranslationError.typeName(Base.Output.self)) is not translated")
        }
        return .startsWith(try state.translate(base), prefix: try state.translate(prefix))
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .stringContains(try state.translate(root), try state.translate(other), options: [.caseInsensitive, .diacriticInsensitive, .localized])
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .stringCompare(try state.translate(root), try state.translate(other), options: .caseInsensitive)
    }
}

extension PredicateExpressions.StringLocalizedCompare: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .stringCompare(try state.translate(root), try state.translate(other), options: .localized)
    }
}
