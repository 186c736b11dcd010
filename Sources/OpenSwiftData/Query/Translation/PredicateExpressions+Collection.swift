import Foundation

extension PredicateExpressions.SequenceContains: QueryTranslatable {
    /// A captured list becomes ``QueryExpression/in(_:_:type:)``; a collection attribute,
    /// ``QueryExpression/collectionContains(_:element:type:)``.
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        let collection = try state.collection(sequence)
        let elementType = try state.valueType(of: LHS.Output.Element.self)
        let element = try state.translate(element)
        if case .value(.array(let list)) = collection {
            return .in(element, list, type: elementType)
        }
        return .collectionContains(collection, element: element, type: elementType)
    }
}

extension PredicateExpressions.SequenceContainsWhere: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        let collection = try state.collection(sequence)
        let number = state.newVariable()
        state.bind(variable.key, to: .expression(.variable(number)))
        return .collectionAny(collection, variable: number, test: try state.translate(test))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        let collection = try state.collection(sequence)
        let number = state.newVariable()
        state.bind(variable.key, to: .expression(.variable(number)))
        return .collectionAll(collection, variable: number, test: try state.translate(test))
    }
}

extension TranslationState {
    /// Arrays and sets only: strings are sequences too, but of `Character`s, which have no query form.
    mutating func collection<E: PredicateExpression>(_ sequence: E) throws -> QueryExpression {
        guard E.Output.self is any QueryCollectionType.Type else {
            throw QueryTranslationError.unsupported("Sequence operations on \(QueryTranslationError.typeName(E.Output.self)) are not translated")
        }
        return try translate(sequence)
    }
}
