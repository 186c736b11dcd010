/// The kind of value an attribute or an expression holds, as stores represent it.
///
/// Enumerations with a raw value have the kind of their raw value; a to-one relationship holds an
/// ``identifier``; collection attributes and to-many relationships are an ``array``.
public enum QueryValueKind: String, Codable, Sendable, Hashable, CaseIterable {
    case bool, integer, double, string, date, uuid, data, identifier, array
}

/// The static Swift type of an operand: its kind, and whether it is `Optional`.
///
/// Renderers need it where SQL and Swift disagree, e.g. SQL's `=` is never true for NULL while
/// Swift's `==` on optionals is true for `nil == nil`.
public struct QueryValueType: Codable, Sendable, Hashable {
    public var kind: QueryValueKind
    public var isOptional: Bool

    public init(_ kind: QueryValueKind, isOptional: Bool = false) {
        self.kind = kind
        self.isOptional = isOptional
    }
}
