/// The property names leading from a fetched model to a value: `["name"]` for an attribute,
/// `["trip", "name"]` for an attribute of a related model.
///
/// Encodes as a plain array of names.
public struct QueryPropertyPath: Codable, Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The property names, from the fetched model to the value.
    public var components: [String]

    /// Creates a path from its property names.
    public init(_ components: [String]) {
        self.components = components
    }

    /// Creates a path from a literal list of property names: `["trip", "name"]`.
    public init(arrayLiteral components: String...) {
        self.components = components
    }

    /// Decodes a path from an array of names.
    public init(from decoder: any Decoder) throws {
        components = try decoder.singleValueContainer().decode([String].self)
    }

    /// Encodes the path as an array of names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(components)
    }

    /// The names joined with dots: `trip.name`.
    public var description: String { components.joined(separator: ".") }
}
