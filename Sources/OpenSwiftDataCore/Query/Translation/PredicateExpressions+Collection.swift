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
        state.bind(variable.key, to: TranslationState.element(number, of: LHS.Output.Element.self))
        return .collectionAny(collection, variable: number, test: try state.translate(test))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        let collection = try state.collection(sequence)
        let number = state.newVariable()
        state.bind(variable.key, to: TranslationState.element(number, of: LHS.Output.Element.self))
        return .collectionAll(collection, variable: number, test: try state.translate(test))
    }
}

extension TranslationState {
    /// Elements of a to-many relationship are models (classes), whose properties the test may
    /// read; key paths on any other class resolve to nothing, so the predicate stays in memory.
    static func element(_ number: Int, of type: Any.Type) -> QueryOperand {
        type is AnyObject.Type ? .element(number, []) : .expression(.variable(number))
    }

    /// Arrays and sets only: strings are sequences too, but of `Character`s, which have no query form.
    mutating func collection<E: PredicateExpression>(_ sequence: E) throws -> QueryExpression {
        guard E.Output.self is any QueryCollectionType.Type else {
            throw QueryTranslationError.unsupported("Sequence operations on \(QueryTranslationError.typeName(E.Output.self)) are not translated")
        }
        return try translate(sequence)
    }
}
