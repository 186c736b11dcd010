/// What every property of a ``Schema/Entity`` has in common: attributes, relationships, and the
/// `#Unique`/`#Index` pseudo-properties.
public protocol SchemaProperty: Decodable, Encodable, Hashable {
    /// The property's name in its model.
    var name: String { get set }
    /// The name the property had in an earlier schema version.
    var originalName: String { get set }
    /// The property's declared type.
    var valueType: any Any.Type { get set }
    /// Whether the property is an attribute.
    var isAttribute: Bool { get }
    /// Whether the property is a relationship.
    var isRelationship: Bool { get }
    /// Whether the property is tracked but not persisted.
    var isTransient: Bool { get }
    /// Whether the property may be `nil`.
    var isOptional: Bool { get }
    /// Whether the property's value must be unique among the entity's models.
    var isUnique: Bool { get }
}

extension SchemaProperty {
    /// `false` unless the property says otherwise.
    public var isAttribute: Bool { false }
    /// `false` unless the property says otherwise.
    public var isRelationship: Bool { false }
    /// `false` unless the property says otherwise.
    public var isTransient: Bool { false }
    /// `false` unless the property says otherwise.
    public var isOptional: Bool { false }
}
