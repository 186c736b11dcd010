/// The places history and sectioned results hand out values as `Sendable` that the type system
/// cannot prove are.
///
/// Swift cannot cast to a marker protocol (`as? any Sendable` does not compile), and a marker
/// protocol adds no witness table, so `any Sendable` has `Any`'s layout and
/// `any PartialKeyPath<M> & Sendable` has `PartialKeyPath<M>`'s (one reference): the values are
/// reinterpreted as they are.
enum AssumedSendable {
    /// A persisted attribute value: a `Codable` value (a value type in practice), never shared
    /// mutable state.
    static func value(_ value: Any) -> any Sendable {
        // `as Any` keeps the existential closed: opened, the cast would see the value's own size.
        unsafeBitCast(value as Any, to: (any Sendable).self)
    }

    /// A model's property key path from its `schemaMetadata`: key path literals without captured
    /// values, which Swift infers `Sendable` where it sees them.
    static func keyPath<M>(_ keyPath: PartialKeyPath<M>) -> any PartialKeyPath<M> & Sendable {
        unsafeBitCast(keyPath, to: (any PartialKeyPath<M> & Sendable).self)
    }

    /// A key path handed to `SortDescriptor`, which requires `Sendable`: every key path is immutable.
    static func keyPath<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> any KeyPath<Root, Value> & Sendable {
        unsafeBitCast(keyPath, to: (any KeyPath<Root, Value> & Sendable).self)
    }
}
