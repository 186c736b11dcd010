extension Schema {
    /// Describes one model class: its attributes, relationships and constraints.
    public final class Entity: Codable, Hashable, CustomDebugStringConvertible, @unchecked Sendable {
        /// The entity's name: the model class's name.
        public final var name: String
        /// The entities of model classes that inherit from this one.
        public final var subentities: Set<Entity> = []
        /// The name of the entity this one inherits from, if any.
        public final var superentityName: String?
        /// The entity this one inherits from, if any.
        public final var superentity: Entity?
        /// The properties the model class declares itself, in declaration order.
        public final var storedProperties: [any SchemaProperty] = []
        /// The properties the entity inherits from its superentity.
        public final var inheritedProperties: [any SchemaProperty] = []
        /// The entity's uniqueness constraints, each a list of property names that must be unique together.
        public final var uniquenessConstraints: [[String]] = []
        /// The entity's indexes, each a list of property names.
        public final var indices: [[String]] = []
        /// The model class, when the entity was built from one (not when decoded or built by hand).
        package var modelType: (any PersistentModel.Type)?

        /// All of the entity's properties: the inherited ones, then its own.
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

        /// Creates an entity with this name and no properties.
        public init(_ name: String) { self.name = name }

        /// Creates an entity with these subentities and properties.
        public init(_ name: String, subentities: Entity..., properties: any SchemaProperty...) {
            self.name = name
            self.subentities = Set(subentities)
            self.storedProperties = properties
        }

        /// Creates an entity with these properties.
        public init(_ name: String, properties: any SchemaProperty...) {
            self.name = name
            self.storedProperties = properties
        }

        /// Builds the entity of a `@Model` class from its generated `schemaMetadata`.
        package init(modelType: any PersistentModel.Type) {
            let info = ModelTypeInfo.of(modelType)
            name = info.entityName
            self.modelType = modelType
            // A subclass's schemaMetadata lists the superclass's properties first.
            let inherited = info.inheritedPropertyCount
            inheritedProperties = info.properties.prefix(inherited).map(Entity.schemaProperty)
            storedProperties = info.properties.dropFirst(inherited).map(Entity.schemaProperty)
            superentityName = info.superclassType.map { ModelTypeInfo.of($0).entityName }
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

        /// Decodes an entity from a schema's JSON: its name, attributes, relationships and constraints.
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

        /// Encodes the entity's name, superentity, attributes, relationships and constraints.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(superentityName, forKey: .superentityName)
            try container.encode(storedProperties.compactMap { $0 as? Attribute }, forKey: .attributes)
            try container.encode(storedProperties.compactMap { $0 as? Relationship }, forKey: .relationships)
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
            try container.encode(indices, forKey: .indices)
        }

        /// Whether two entities have the same name, properties and constraints.
        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
                && lhs.storedProperties.map(\.name) == rhs.storedProperties.map(\.name)
                && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
        }

        /// Hashes the entity's name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        /// The entity's name and its properties' names, for debugging.
        public var debugDescription: String {
            "Entity(\(name): \(storedProperties.map(\.name).joined(separator: ", ")))"
        }
    }
}
