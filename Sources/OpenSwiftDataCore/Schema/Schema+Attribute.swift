import Foundation

extension Schema {
    /// A persisted value property of an entity.
    public class Attribute: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        /// The attribute's name: the property's name in the model.
        public var name: String
        /// The name the property had in an earlier schema version, which a migration renames.
        public var originalName: String
        /// The options `@Attribute` gave, such as ``Option/unique`` or ``Option/externalStorage``.
        public var options: [Option]
        /// The property's declared type, such as `String` or `Date?`.
        public var valueType: any Any.Type
        /// The value the property's declaration gives it, which a migration fills into existing rows.
        public var defaultValue: Any?
        /// Whether the property may be `nil`.
        public var isOptional: Bool
        /// A string that changes the attribute's version hash without changing its shape.
        public var hashModifier: String?
        /// The model key path this attribute was built from; `nil` for attributes decoded or built by hand.
        package var keyPath: AnyKeyPath?

        /// The form `@Attribute(...)` records: options only, name and type filled in from the model.
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.isOptional = false
            self.hashModifier = hashModifier
        }

        /// Describes an attribute by its name, options, type and default value.
        public init(name: String, originalName: String? = nil, options: [Option] = [], valueType: any Any.Type,
                    defaultValue: Any? = nil, hashModifier: String? = nil) {
            self.name = name
            self.originalName = originalName ?? name
            self.options = options
            self.valueType = valueType
            self.defaultValue = defaultValue
            self.isOptional = valueType is any AnyOptional.Type
            self.hashModifier = hashModifier
        }

        private enum CodingKeys: String, CodingKey { case name, originalName, options, valueType, isOptional, hashModifier }

        /// Decodes an attribute from a schema's JSON; its value type is unknown after decoding.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName) ?? name
            options = try container.decodeIfPresent([Option].self, forKey: .options) ?? []
            isOptional = try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            // A type cannot be rebuilt from its name; decoded schemas compare by name and options.
            valueType = Any.self
        }

        /// Encodes the attribute's name, earlier name, options and optionality.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encode(String(reflecting: valueType), forKey: .valueType)
            try container.encode(isOptional, forKey: .isOptional)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        }

        /// Always `true`.
        public var isAttribute: Bool { true }
        /// Always `false`: an attribute is not a relationship.
        public var isRelationship: Bool { false }
        /// Whether the attribute is tracked but not persisted (``Option/ephemeral``).
        public var isTransient: Bool { options.contains(.ephemeral) }
        /// Whether the attribute carries the ``Option/unique`` option.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the attribute is persisted through a value transformer.
        public var isTransformable: Bool { options.contains { $0.isTransformable } }
        /// Whether the attribute persists its value's `Codable` encoding opaquely (``Option/codable``),
        /// so that predicates and sorts cannot use it.
        public var isCodable: Bool { options.contains(.codable) }

        /// Whether two attributes have the same name, earlier name, options, optionality and hash modifier.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.isOptional == rhs.isOptional && lhs.hashModifier == rhs.hashModifier
        }

        /// Hashes the attribute's name and options.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(options)
        }

        /// The attribute's name, type, options and optionality, for debugging.
        public var debugDescription: String {
            "Attribute(name: \(name), valueType: \(valueType), options: \(options), isOptional: \(isOptional))"
        }
    }

    /// A persisted composite value (a struct persisted as a group of attributes).
    public final class CompositeAttribute: Attribute, @unchecked Sendable {
        /// The attributes the composite value is made of.
        public final var properties: [Attribute] = []
    }
}

extension Schema.Attribute {
    /// How an attribute is stored.
    public struct Option: Codable, Hashable, CustomDebugStringConvertible, Sendable {
        private let kind: String
        private let transformerName: String?

        private init(_ kind: String, transformerName: String? = nil) {
            self.kind = kind
            self.transformerName = transformerName
        }

        /// The value must be unique across the entity; an insert that collides updates the existing model.
        public static var unique: Option { Option("unique") }
        /// Persists the value through the named `ValueTransformer`.
        public static func transformable(by transformerName: String) -> Option { Option("transformable", transformerName: transformerName) }
        /// Persists the value through the given transformer type (Foundation's `ValueTransformer`
        /// does not exist on Linux, so any class type is accepted and recorded by name).
        public static func transformable(by transformerType: AnyClass) -> Option {
            Option("transformable", transformerName: String(reflecting: transformerType))
        }
        /// Large binary data may be stored outside the main store file.
        public static var externalStorage: Option { Option("externalStorage") }
        /// Stored encrypted in CloudKit (no effect on Linux stores).
        public static var allowsCloudEncryption: Option { Option("allowsCloudEncryption") }
        /// Keeps the value in history tombstones after the model is deleted.
        public static var preserveValueOnDeletion: Option { Option("preserveValueOnDeletion") }
        /// Tracked for changes but not persisted.
        public static var ephemeral: Option { Option("ephemeral") }
        /// Indexed for Spotlight (no effect on Linux stores).
        public static var spotlight: Option { Option("spotlight") }
        /// Persists the value's `Codable` encoding opaquely; it cannot be used in predicates or sorts.
        public static var codable: Option { Option("codable") }

        var isTransformable: Bool { kind == "transformable" }

        /// The option's name, with the transformer's name for a transformable attribute.
        public var debugDescription: String {
            transformerName.map { "\(kind)(\($0))" } ?? kind
        }
    }
}
