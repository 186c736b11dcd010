/// What every property of a ``Schema/Entity`` has in common: attributes, relationships, and the
/// `#Unique`/`#Index` pseudo-properties.
public protocol SchemaProperty: Decodable, Encodable, Hashable {
    var name: String { get set }
    var originalName: String { get set }
    var valueType: any Any.Type { get set }
    var isAttribute: Bool { get }
    var isRelationship: Bool { get }
    var isTransient: Bool { get }
    var isOptional: Bool { get }
    var isUnique: Bool { get }
}

extension SchemaProperty {
    public var isAttribute: Bool { false }
    public var isRelationship: Bool { false }
    public var isTransient: Bool { false }
    public var isOptional: Bool { false }
}
