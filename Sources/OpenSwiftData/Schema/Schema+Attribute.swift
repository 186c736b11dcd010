import Foundation

extension Schema {
    /// A persisted value property of an entity.
    public class Attribute: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        public var name: String
        public var originalName: String
        public var options: [Option]
        public var valueType: any Any.Type
        public var defaultValue: Any?
        public var isOptional: Bool
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

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encode(String(reflecting: valueType), forKey: .valueType)
            try container.encode(isOptional, forKey: .isOptional)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        }

        public var isAttribute: Bool { true }
        public var isRelationship: Bool { false }
        public var isTransient: Bool { options.contains(.ephemeral) }
        public var isUnique: Bool { options.contains(.unique) }
        public var isTransformable: Bool { options.contains { $0.isTransformable } }

        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.isOptional == rhs.isOptional && lhs.hashModifier == rhs.hashModifier
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(options)
        }

        public var debugDescription: String {
            "Attribute(name: \(name), valueType: \(valueType), options: \(options), isOptional: \(isOptional))"
        }
    }

    /// A persisted composite value (a struct persisted as a group of attributes).
    public final class CompositeAttribute: Attribute, @unchecked Sendable {
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

        public var debugDescription: String {
            transformerName.map { "\(kind)(\($0))" } ?? kind
        }
    }
}
