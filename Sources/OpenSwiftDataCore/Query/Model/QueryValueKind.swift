/// The kind of value an attribute or an expression holds, as stores represent it.
///
/// Enumerations with a raw value have the kind of their raw value; a to-one relationship holds an
/// ``identifier``; collection attributes and to-many relationships are an ``array``.
public enum QueryValueKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// A `Bool`.
    case bool
    /// An integer of any width, as `Int64`.
    case integer
    /// A `Double` or `Float`.
    case double
    /// A `String` (or a `URL`, or a string raw value).
    case string
    /// A `Date`.
    case date
    /// A `UUID`.
    case uuid
    /// `Data`.
    case data
    /// A `PersistentIdentifier`: a model, or a to-one relationship.
    case identifier
    /// A collection: a collection attribute or a to-many relationship.
    case array
}

/// The static Swift type of an operand: its kind, and whether it is `Optional`.
///
/// Renderers need it where SQL and Swift disagree, e.g. SQL's `=` is never true for NULL while
/// Swift's `==` on optionals is true for `nil == nil`.
public struct QueryValueType: Codable, Sendable, Hashable {
    /// The kind of the operand's values.
    public var kind: QueryValueKind
    /// Whether the operand is `Optional`, so may be `nil`.
    public var isOptional: Bool

    /// Creates an operand type of this kind.
    public init(_ kind: QueryValueKind, isOptional: Bool = false) {
        self.kind = kind
        self.isOptional = isOptional
    }
}
