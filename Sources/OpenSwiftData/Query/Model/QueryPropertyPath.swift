/// The property names leading from a fetched model to a value: `["name"]` for an attribute,
/// `["trip", "name"]` for an attribute of a related model.
///
/// Encodes as a plain array of names.
public struct QueryPropertyPath: Codable, Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    public var components: [String]

    public init(_ components: [String]) {
        self.components = components
    }

    public init(arrayLiteral components: String...) {
        self.components = components
    }

    public init(from decoder: any Decoder) throws {
        components = try decoder.singleValueContainer().decode([String].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(components)
    }

    public var description: String { components.joined(separator: ".") }
}
