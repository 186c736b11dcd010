import Foundation

extension PredicateExpressions.Value: QueryTranslatable {
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard let converted = QueryValue(common: value) ?? QueryValue(converting: value) else {
            throw QueryTranslationError.unsupported("Captured values of type \(QueryTranslationError.typeName(Output.self)) are not translated")
        }
        return .value(converted)
    }
}

extension QueryValue {
    /// The query form of a captured value of one of the usual types, recognised by its static type
    /// alone; the same as their ``QueryValueConvertible`` conformances give. ``init(converting:)``
    /// tries four dynamic casts first, each a conformance lookup, for every captured value.
    init?<T>(common value: T) {
        func take<V>(_: V.Type) -> V { UnsafeRuntime.reinterpret(value, as: V.self) }
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): self = .string(take(String.self))
        case ObjectIdentifier(Int.self): self = .integer(Int64(take(Int.self)))
        case ObjectIdentifier(Int64.self): self = .integer(take(Int64.self))
        case ObjectIdentifier(Double.self): self = .double(take(Double.self))
        case ObjectIdentifier(Bool.self): self = .bool(take(Bool.self))
        case ObjectIdentifier(UUID.self): self = .uuid(take(UUID.self))
        case ObjectIdentifier(Date.self): self = .date(take(Date.self))
        default: return nil
        }
    }
}
