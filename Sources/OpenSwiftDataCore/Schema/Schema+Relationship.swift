extension Schema {
    /// A property that refers to other models.
    public final class Relationship: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        /// The relationship's name: the property's name in the model.
        public final var name: String
        /// The name the property had in an earlier schema version, which a migration renames.
        public final var originalName: String
        /// The key path of the property in its model, when the model declared it.
        public final var keypath: AnyKeyPath?
        /// The options the `@Relationship` attribute gave, such as ``Option/unique``.
        public final var options: [Option]
        /// The property's declared type, such as `Trip?` or `[Trip]`.
        public final var valueType: any Any.Type
        /// The name of the entity the relationship refers to.
        public final var destination: String
        /// What deleting a model does to the models this relationship refers to.
        public final var deleteRule: DeleteRule
        /// The name of the property on the destination that refers back, if the relationship has an inverse.
        public final var inverseName: String?
        /// The key path of the inverse property, as `@Relationship(inverse:)` named it.
        public final var inverseKeyPath: AnyKeyPath?
        /// The fewest models a to-many relationship may hold; `0` or `nil` sets no minimum.
        public final var minimumModelCount: Int?
        /// The most models a to-many relationship may hold; `0` or `nil` sets no maximum.
        public final var maximumModelCount: Int?
        /// A string that changes the relationship's version hash without changing its shape.
        public final var hashModifier: String?
        /// Whether the property may be `nil` (a to-one `T?` or a to-many `[T]?`).
        public final var isOptional: Bool = false
        /// Whether the property holds one model rather than a collection.
        package var isToMany: Bool = false

        /// Whether the property holds at most one model rather than a collection.
        public final var isToOneRelationship: Bool { !isToMany }

        /// What happens to related models when a model is deleted.
        public enum DeleteRule: String, Codable, Sendable {
            /// Leaves related models untouched; the app must fix dangling references itself.
            case noAction
            /// Clears the related side's reference (the default).
            case nullify
            /// Deletes the related models.
            case cascade
            /// Refuses the delete while related models exist.
            case deny
        }

        /// An option of a relationship, given to `@Relationship`.
        public struct Option: Codable, Hashable, CustomDebugStringConvertible, Sendable {
            private let kind: String
            private init(_ kind: String) { self.kind = kind }
            /// The relationship's target must be unique.
            public static var unique: Option { Option("unique") }
            /// The option's name.
            public var debugDescription: String { kind }
        }

        /// Describes a relationship, as `@Relationship` does: its options, delete rule, model counts,
        /// earlier name and inverse.
        public init(_ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
                    maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
                    hashModifier: String? = nil) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.destination = ""
            self.deleteRule = deleteRule
            self.inverseKeyPath = inverse
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.hashModifier = hashModifier
        }

        private enum CodingKeys: String, CodingKey {
            case name, originalName, options, destination, deleteRule, inverseName, minimumModelCount,
                 maximumModelCount, hashModifier, isOptional, isToMany
        }

        /// Decodes a relationship as a schema's JSON stores it; its value type is unknown after decoding.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decodeIfPresent(String.self, forKey: .originalName) ?? name
            options = try container.decodeIfPresent([Option].self, forKey: .options) ?? []
            destination = try container.decode(String.self, forKey: .destination)
            deleteRule = try container.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify
            inverseName = try container.decodeIfPresent(String.self, forKey: .inverseName)
            minimumModelCount = try container.decodeIfPresent(Int.self, forKey: .minimumModelCount)
            maximumModelCount = try container.decodeIfPresent(Int.self, forKey: .maximumModelCount)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            isOptional = try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false
            isToMany = try container.decodeIfPresent(Bool.self, forKey: .isToMany) ?? false
            valueType = Any.self
        }

        /// Encodes the relationship's name, destination, rule, inverse, counts and options.
        public final func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encode(destination, forKey: .destination)
            try container.encode(deleteRule, forKey: .deleteRule)
            try container.encodeIfPresent(inverseName, forKey: .inverseName)
            try container.encodeIfPresent(minimumModelCount, forKey: .minimumModelCount)
            try container.encodeIfPresent(maximumModelCount, forKey: .maximumModelCount)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
            try container.encode(isOptional, forKey: .isOptional)
            try container.encode(isToMany, forKey: .isToMany)
        }

        /// Whether the relationship carries the ``Option/unique`` option.
        public final var isUnique: Bool { options.contains(.unique) }
        /// Always `false`: a relationship is not an attribute.
        public final var isAttribute: Bool { false }
        /// Always `true`.
        public final var isRelationship: Bool { true }
        /// Always `false`: relationships are persisted.
        public final var isTransient: Bool { false }

        /// Whether two relationships have the same name, destination, rule, inverse, cardinality,
        /// options and model counts.
        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.inverseName == rhs.inverseName && lhs.isToMany == rhs.isToMany && lhs.options == rhs.options
                && lhs.minimumModelCount == rhs.minimumModelCount && lhs.maximumModelCount == rhs.maximumModelCount
        }

        /// Hashes the relationship's name and destination.
        public final func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }

        /// The relationship's name, destination, cardinality, delete rule and inverse, for debugging.
        public final var debugDescription: String {
            "Relationship(name: \(name), destination: \(destination), toMany: \(isToMany), deleteRule: \(deleteRule), inverse: \(inverseName ?? "nil"))"
        }
    }
}
