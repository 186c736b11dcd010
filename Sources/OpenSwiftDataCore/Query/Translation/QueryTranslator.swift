import Foundation

/// What a key path on a model means in the store, as the schema says.
public enum QueryKeyPathResolution: Sendable, Hashable {
    /// A stored attribute; `kind` is how stores hold it (an enum's raw value kind).
    case attribute(name: String, kind: QueryValueKind, isOptional: Bool)
    /// The model's `persistentModelID`.
    case identifier
    /// A relationship to models of the entity named `destination`.
    case relationship(name: String, destination: String, isToMany: Bool, isOptional: Bool)
}

/// Translates `#Predicate`s and `SortDescriptor`s into the store-neutral ``DataStoreQuery``.
///
/// ```swift
/// let translator = QueryTranslator { keyPath in
///     switch keyPath {
///     case \Trip.name: .attribute(name: "name", kind: .string, isOptional: false)
///     case \Trip.persistentModelID: .identifier
///     default: nil
///     }
/// }
/// let filter = try translator.translate(#Predicate<Trip> { $0.name == "Paris" })
/// ```
///
/// Everything it cannot translate exactly throws ``QueryTranslationError``: a store then
/// prefers in-memory filtering or sorting, and results never differ from Swift's.
public struct QueryTranslator: Sendable {
    /// Maps a model key path to what it means; compares `AnyKeyPath` values, never descriptions.
    public var resolve: @Sendable (AnyKeyPath) -> QueryKeyPathResolution?

    /// Creates a translator that asks `resolve` what each key path of a predicate or sort means.
    public init(resolve: @escaping @Sendable (AnyKeyPath) -> QueryKeyPathResolution?) {
        self.resolve = resolve
    }

    /// The predicate's store-neutral filter expression.
    public func translate<T>(_ predicate: Predicate<T>) throws -> QueryExpression {
        var state = TranslationState(resolve: resolve)
        state.bind(predicate.variable.key, to: .model([]))
        return try state.translate(predicate.expression)
    }

    /// The whole fetch as a store-neutral query: filter, sorts, limit and offset.
    public func translate<T>(entityName: String, predicate: Predicate<T>?, sortBy: [SortDescriptor<T>], fetchLimit: Int?, fetchOffset: Int?) throws -> DataStoreQuery {
        // `if let`, not `map`: mapping the optional ran through two generic type lookups.
        let filter: QueryExpression? = if let predicate { try translate(predicate) } else { nil }
        return DataStoreQuery(
            entityName: entityName,
            filter: filter,
            sortBy: try translate(sortBy),
            fetchLimit: fetchLimit,
            fetchOffset: fetchOffset
        )
    }
}
