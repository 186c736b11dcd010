import Foundation

extension PredicateExpressions.NilLiteral: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .value(.null)
    }
}

extension PredicateExpressions.NilCoalesce: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        .coalesce(try state.translate(lhs), default: try state.translate(rhs))
    }
}

extension PredicateExpressions.ForcedUnwrap: QueryOperandTranslatable {
    /// `$0.trip!.name` reads `["trip", "name"]`, which is nil (not an error) when there is no trip.
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand {
        switch try state.operand(inner) {
        case .model(let path): .model(path)
        case .element(let number, let path): .element(number, path)
        case .expression(let inner): .expression(.forceUnwrap(inner))
        }
    }
}

extension PredicateExpressions.OptionalFlatMap: QueryOperandTranslatable {
    /// `wrapped.flatMap { transform }` is `wrapped == nil ? nil : transform(wrapped!)`. A property
    /// reached through the optional relationship (`$0.trip?.name`) needs no test: it is nil already.
    /// Through a cast (`($0 as? BusinessTrip)?.perdiem`) the model's properties are read when it
    /// is of the class, and it is nil otherwise.
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand {
        if let cast = wrapped as? any QueryModelCast {
            let (model, test) = try cast.castOperand(&state)
            state.bind(variable.key, to: model)
            let result = state.expression(for: try state.operand(transform))
            return .expression(.conditional(test, then: result, else: .value(.null)))
        }
        switch try state.operand(wrapped) {
        case .model(let path):
            return try related(.model(path), path: path, &state)
        case .element(let number, let path):
            return try related(.element(number, path), path: path, &state)
        case .expression(let wrapped):
            let type = try state.valueType(of: LHS.Output.self)
            state.bind(variable.key, to: .expression(.forceUnwrap(wrapped)))
            let result = try state.translate(transform)
            let isNil = QueryExpression.comparison(wrapped, .equal, .value(.null), type: type)
            return .expression(.conditional(isNil, then: .value(.null), else: result))
        }
    }

    private func related(_ model: QueryOperand, path: [String], _ state: inout TranslationState) throws -> QueryOperand {
        state.bind(variable.key, to: model)
        let result = try state.operand(transform)
        switch result {
        case .model, .element:
            return result
        case .expression(.property(let property)) where property.components.starts(with: path):
            return result
        case .expression(.elementProperty(_, let property)) where property.components.starts(with: path):
            return result
        default:
            let isNil = QueryExpression.comparison(state.expression(for: model), .equal, .value(.null), type: QueryValueType(.identifier, isOptional: true))
            return .expression(.conditional(isNil, then: .value(.null), else: state.expression(for: result)))
        }
    }
}
