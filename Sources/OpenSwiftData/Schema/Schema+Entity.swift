extension Schema {
    /// Describes one model class: its attributes, relationships and constraints.
    public final class Entity: Codable, Hashable, CustomDebugStringConvertible, @unchecked Sendable {
        public final var name: String
        public final var subentities: Set<Entity> = []
        public final var superentityName: String?
        public final var superentity: Entity?
        public final var storedProperties: [any SchemaProperty] = []
        public final var inheritedProperties: [any SchemaProperty] = []
        public final var uniquenessConstraints: [[String]] = []
        public final var indices: [[String]] = []
        /// The model class, when the entity was built from one (not when decoded or built by hand).
        package var modelType: (any PersistentModel.Type)?

        public final var properties: [any SchemaProperty] { inheritedProperties + storedProperties }
        /// The entity's attributes, inherited ones included. Setting it replaces the stored
        /// attributes (in name order) and keeps the stored relationships.
        public final var attributes: Set<Attribute> {
            get { Set(properties.compactMap { $0 as? Attribute }) }
            set { replaceStored(Attribute.self, with: newValue.sorted { $0.name < $1.name }) }
        }
        /// The entity's relationships, inherited ones included. Setting it replaces the stored
        /// relationships (in name order) and keeps the stored attributes.
        public final var relationships: Set<Relationship> {
            get { Set(properties.compactMap { $0 as? Relationship }) }
            set { replaceStored(Relationship.self, with: newValue.sorted { $0.name < $1.name }) }
        }
        /// ``attributes`` by name; setting it replaces the stored attributes, as setting ``attributes`` does.
        public final var attributesByName: [String: Attribute] {
            get { Dictionary(properties.compactMap { $0 as? Attribute }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            set { attributes = Set(newValue.values) }
        }
        /// ``relationships`` by name; setting it replaces the stored relationships, as setting ``relationships`` does.
        public final var relationshipsByName: [String: Relationship] {
            get { Dictionary(properties.compactMap { $0 as? Relationship }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            set { relationships = Set(newValue.values) }
        }
        /// ``storedProperties`` by name; setting it replaces them, in name order.
        public final var storedPropertiesByName: [String: any SchemaProperty] {
            get { Dictionary(storedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            set { storedProperties = newValue.sorted { $0.key < $1.key }.map(\.value) }
        }
        /// ``inheritedProperties`` by name; setting it replaces them, in name order.
        public final var inheritedPropertiesByName: [String: any SchemaProperty] {
            get { Dictionary(inheritedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            set { inheritedProperties = newValue.sorted { $0.key < $1.key }.map(\.value) }
        }

        private func replaceStored<Kind: SchemaProperty>(_ kind: Kind.Type, with properties: [Kind]) {
            storedProperties = storedProperties.filter { !($0 is Kind) } + properties
        }

        public init(_ name: String) { self.name = name }

        public init(_ name: String, subentities: Entity..., properties: any SchemaProperty...) {
            self.name = name
            self.subentities = Set(subentities)
            self.storedProperties = properties
        }

        public init(_ name: String, properties: any SchemaProperty...) {
            self.name = name
            self.storedProperties = properties
        }

        /// Builds the entity of a `@Model` class from its generated `schemaMetadata`.
        package init(modelType: any PersistentModel.Type) {
            let info = ModelTypeInfo.of(modelType)
            name = info.entityName
            self.modelType = modelType
            storedProperties = info.properties.map(Entity.schemaProperty)
            let names = { (paths: [AnyKeyPath]) in paths.compactMap(info.propertyName(for:)) }
            uniquenessConstraints = info.uniquenessConstraints
            indices = info.indexKeyPathLists.map(names)
        }

        private static func schemaProperty(_ property: ModelTypeInfo.Property) -> any SchemaProperty {
            switch property.shape {
            case .attribute:
                let declared = property.metadata as? Attribute
                let attribute = Attribute(name: property.name, originalName: nonEmpty(declared?.originalName),
                                          options: declared?.options ?? [], valueType: property.valueType,
                                          defaultValue: property.defaultValue, hashModifier: declared?.hashModifier)
                attribute.keyPath = property.keyPath
                return attribute
            case .toOne(let destination, let optional), .toMany(let destination, let optional):
                // A copy: the declared relationship is the model type's, shared by every schema
                // built from it, possibly on other threads at the same time.
                let declared = property.metadata as? Relationship
                let relationship = Relationship(deleteRule: declared?.deleteRule ?? .nullify,
                                                minimumModelCount: declared?.minimumModelCount ?? 0,
                                                maximumModelCount: declared?.maximumModelCount ?? 0,
                                                originalName: declared?.originalName, inverse: declared?.inverseKeyPath,
                                                hashModifier: declared?.hashModifier)
                relationship.options = declared?.options ?? []
                relationship.inverseName = declared?.inverseName
                relationship.name = property.name
                relationship.originalName = nonEmpty(relationship.originalName) ?? property.name
                relationship.keypath = property.keyPath
                relationship.valueType = property.valueType
                relationship.destination = String(describing: destination)
                relationship.isOptional = optional
                if case .toMany = property.shape { relationship.isToMany = true }
                return relationship
            }
        }

        private static func nonEmpty(_ string: String?) -> String? {
            guard let string, !string.isEmpty else { return nil }
            return string
        }

        private enum CodingKeys: String, CodingKey {
            case name, superentityName, attributes, relationships, uniquenessConstraints, indices
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            superentityName = try container.decodeIfPresent(String.self, forKey: .superentityName)
            let attributes = try container.decodeIfPresent([Attribute].self, forKey: .attributes) ?? []
            let relationships = try container.decodeIfPresent([Relationship].self, forKey: .relationships) ?? []
            storedProperties = attributes + relationships
            uniquenessConstraints = try container.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints) ?? []
            indices = try container.decodeIfPresent([[String]].self, forKey: .indices) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(superentityName, forKey: .superentityName)
            try container.encode(storedProperties.compactMap { $0 as? Attribute }, forKey: .attributes)
            try container.encode(storedProperties.compactMap { $0 as? Relationship }, forKey: .relationships)
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
            try container.encode(indices, forKey: .indices)
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
                && lhs.storedProperties.map(\.name) == rhs.storedProperties.map(\.name)
                && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        public var debugDescription: String {
            "Entity(\(name): \(storedProperties.map(\.name).joined(separator: ", ")))"
        }
    }
}
