/// The values a deleted model kept: those of its attributes marked
/// `@Attribute(.preserveValueOnDeletion)`, as they were stored when it was deleted.
///
/// ```swift
/// let address = delete.tombstone[\.address] as? String
/// ```
///
/// Iterating yields one `(PartialKeyPath<Model>, any Sendable)` pair per kept value, in the
/// order the model declares its properties.
public struct HistoryTombstone<Model>: Sequence, @unchecked Sendable where Model: PersistentModel {
    /// A `(PartialKeyPath<Model>, any Sendable)` pair.
    public typealias Element = Any

    private let entries: [(keyPath: PartialKeyPath<Model>, value: any Sendable)]

    /// `values` by property name; names that are not properties of `Model` are left out.
    package init(values: [String: Any]) {
        let info = ModelTypeInfo.of(Model.self)
        entries = info.properties.compactMap { property in
            guard let value = values[property.name], let keyPath = property.keyPath as? PartialKeyPath<Model> else { return nil }
            return (keyPath, AssumedSendable.value(value))
        }
    }

    /// The kept value of `keyPath` (an optional's `nil` as `Optional<Wrapped>.none`), or `nil`
    /// when the attribute is not preserved on deletion.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        entries.first { $0.keyPath == keyPath }?.value
    }

    /// Iterates over the kept values, in the order the model declares its properties.
    public func makeIterator() -> Iterator {
        Iterator(entries: entries[...])
    }

    /// Iterates over a tombstone's kept values.
    public struct Iterator: IteratorProtocol {
        /// A `(PartialKeyPath<Model>, any Sendable)` pair.
        public typealias Element = Any
        fileprivate var entries: ArraySlice<(keyPath: PartialKeyPath<Model>, value: any Sendable)>

        /// The next kept value with its key path, or nil after the last.
        public mutating func next() -> Any? {
            entries.popFirst().map { ($0.keyPath, $0.value) }
        }
    }
}
