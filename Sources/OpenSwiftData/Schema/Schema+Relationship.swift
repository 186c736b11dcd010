extension Schema {
    /// A property that refers to other models.
    public final class Relationship: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        public final var name: String
        public final var originalName: String
        public final var keypath: AnyKeyPath?
        public final var options: [Option]
        public final var valueType: any Any.Type
        public final var destination: String
        public final var deleteRule: DeleteRule
        public final var inverseName: String?
        public final var inverseKeyPath: AnyKeyPath?
        public final var minimumModelCount: Int?
        public final var maximumModelCount: Int?
        public final var hashModifier: String?
        /// Whether the property may be `nil` (a to-one `T?` or a to-many `[T]?`).
        public final var isOptional: Bool = false
        /// Whether the property holds one model rather than a collection.
        package var isToMany: Bool = false

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

        public struct Option: Codable, Hashable, CustomDebugStringConvertible, Sendable {
            private let kind: String
            private init(_ kind: String) { self.kind = kind }
            /// The relationship's target must be unique.
            public static var unique: Option { Option("unique") }
            public var debugDescription: String { kind }
        }

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

        public final var isUnique: Bool { options.contains(.unique) }
        public final var isAttribute: Bool { false }
        public final var isRelationship: Bool { true }
        public final var isTransient: Bool { false }

        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.inverseName == rhs.inverseName && lhs.isToMany == rhs.isToMany && lhs.options == rhs.options
                && lhs.minimumModelCount == rhs.minimumModelCount && lhs.maximumModelCount == rhs.maximumModelCount
        }

        public final func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }

        public final var debugDescription: String {
            "Relationship(name: \(name), destination: \(destination), toMany: \(isToMany), deleteRule: \(deleteRule), inverse: \(inverseName ?? "nil"))"
        }
    }
}
