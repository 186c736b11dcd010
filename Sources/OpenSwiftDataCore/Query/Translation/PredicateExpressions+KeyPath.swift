import Foundation

extension PredicateExpressions.Variable: QueryOperandTranslatable {
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand {
        guard let operand = state.binding(of: key) else {
            throw QueryTranslationError.unsupported("A variable not bound by the predicate is not translated")
        }
        return operand
    }
}

extension PredicateExpressions.KeyPath: QueryOperandTranslatable {
    func translateOperand(_ state: inout TranslationState) throws -> QueryOperand {
        switch try state.operand(root) {
        case .model(let path): try member(ofModelAt: path, state)
        case .element(let number, let path): try member(ofElement: number, at: path, state)
        case .expression(let base): .expression(try member(of: base))
        }
    }

    private func member(ofModelAt path: [String], _ state: TranslationState) throws -> QueryOperand {
        switch state.resolve(keyPath) {
        case .attribute(let name, _, _):
            .expression(.property(QueryPropertyPath(Self.appending(name, to: path))))
        case .identifier:
            .expression(state.expression(for: .model(path)))
        case .relationship(let name, _, true, _):
            .expression(.property(QueryPropertyPath(Self.appending(name, to: path))))
        case .relationship(let name, _, false, _):
            .model(Self.appending(name, to: path))
        case nil:
            throw QueryTranslationError.unsupported("The key path \(keyPath) is not a stored property")
        }
    }

    /// The same, from an element of a to-many relationship.
    private func member(ofElement number: Int, at path: [String], _ state: TranslationState) throws -> QueryOperand {
        switch state.resolve(keyPath) {
        case .attribute(let name, _, _), .relationship(let name, _, true, _):
            .expression(.elementProperty(number, QueryPropertyPath(path + [name])))
        case .identifier:
            .expression(state.expression(for: .element(number, path)))
        case .relationship(let name, _, false, _):
            .element(number, path + [name])
        case nil:
            throw QueryTranslationError.unsupported("The key path \(keyPath) is not a stored property")
        }
    }

    /// Not `path + [name]`, which makes a second array and grows it; most paths are empty.
    private static func appending(_ name: String, to path: [String]) -> [String] {
        guard !path.isEmpty else { return [name] }
        var extended = path
        extended.append(name)
        return extended
    }

    /// Only `count` and `isEmpty` of strings and collections have a query form.
    private func member(of base: QueryExpression) throws -> QueryExpression {
        let baseKind: QueryValueKind? = switch Root.Output.self {
        case is String.Type: .string
        case is any QueryCollectionType.Type: .array
        default: nil
        }
        switch (kind, baseKind) {
        case (.collectionCount, let baseKind?): return .count(base, of: baseKind)
        case (.collectionIsEmpty, let baseKind?): return .isEmpty(base, of: baseKind)
        default: throw QueryTranslationError.unsupported("Key paths on \(QueryTranslationError.typeName(Root.Output.self)) other than count and isEmpty are not translated")
        }
    }
}
