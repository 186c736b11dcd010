import Foundation

/// The description of a set of model types: their entities, properties and constraints.
///
/// ```swift
/// let schema = Schema([Trip.self])        // related model types are pulled in too
/// ```
public final class Schema: Codable, Hashable, CustomDebugStringConvertible, @unchecked Sendable {
    /// The version of the JSON format schemas are encoded in.
    public static let schemaEncodingVersion = Version(1, 0, 0)

    /// The JSON format version this schema was encoded in, or is encoded in.
    public final let encodingVersion: Version
    /// The schema's version, as its `VersionedSchema` names it (1.0.0 unless given).
    public final let version: Version
    /// The schema's entities, one per model type.
    public final let entities: [Entity]
    /// The schema's entities, by entity name.
    public final let entitiesByName: [String: Entity]
    /// Whether some entity inherits from another: fetches then include subclasses' models.
    package var hasInheritance: Bool { entities.contains { $0.superentityName != nil } }

    /// Creates an empty schema, version 1.0.0.
    public init() {
        encodingVersion = Schema.schemaEncodingVersion
        version = Version(1, 0, 0)
        entities = []
        entitiesByName = [:]
    }

    /// Creates a schema of these entities, built by hand.
    public init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        encodingVersion = Schema.schemaEncodingVersion
        self.version = version
        self.entities = entities
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Builds the schema of the given model types and of every model type they reference.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// Builds the schema of the given model types and of every model type they reference.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        encodingVersion = Schema.schemaEncodingVersion
        self.version = version
        var ordered: [any PersistentModel.Type] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = types
        while !pending.isEmpty {
            let type = pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            ordered.append(type)
            let info = ModelTypeInfo.of(type)
            if let superclass = info.superclassType { pending.append(superclass) }
            for property in info.properties {
                switch property.shape {
                case .toOne(let destination, _), .toMany(let destination, _): pending.append(destination)
                case .attribute: break
                }
            }
        }
        let entities = ordered.map(Entity.init(modelType:))
        self.entities = entities
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        Schema.linkInheritance(entities, byName: entitiesByName)
        Schema.resolveInverses(entities, byName: entitiesByName)
        EntityRegistry.register(ordered)
    }

    /// Builds the schema of a versioned schema's models, with its version.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    private enum CodingKeys: String, CodingKey { case encodingVersion, version, entities }

    /// Decodes a schema from its JSON; model types and key paths are not part of it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        encodingVersion = try container.decodeIfPresent(Version.self, forKey: .encodingVersion) ?? Schema.schemaEncodingVersion
        version = try container.decode(Version.self, forKey: .version)
        entities = try container.decode([Entity].self, forKey: .entities)
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Encodes the schema's versions and entities as JSON.
    public final func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodingVersion, forKey: .encodingVersion)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }

    /// Writes the schema's JSON to a file, atomically.
    public final func save(to toURL: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: toURL, options: .atomic)
    }

    /// Reads a schema from a file ``save(to:)`` wrote.
    public static func load(from fromURL: URL) throws -> Schema {
        try JSONDecoder().decodeChecked(Schema.self, from: Data(contentsOf: fromURL))
    }

    /// The entity of a model type, if the schema has it.
    public final func entity<T>(for type: T.Type) -> Entity? where T: PersistentModel {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// The entity name of a model type: its unqualified class name, as SwiftData uses.
    public static func entityName<T>(for type: T.Type) -> String where T: PersistentModel {
        // The type's name, as cached with its other facts: `String(describing:)` demangles the
        // name on each call, and every fetch asks.
        ModelTypeInfo.of(type).entityName
    }

    /// Whether two schemas have the same version and the same entities.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
    }

    /// Hashes the schema's version and entity names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name))
    }

    /// The schema's version and entities, for debugging.
    public final var debugDescription: String {
        "Schema(version: \(version), entities: \(entities.map(\.debugDescription)))"
    }

    /// Sets each subclass entity's `superentity`, and adds it to its superentity's `subentities`.
    /// The inherited properties become the superentity's own objects, so that inverses resolved on
    /// the superentity hold for its subentities too. Superentities first, for deeper hierarchies.
    private static func linkInheritance(_ entities: [Entity], byName: [String: Entity]) {
        func depth(_ entity: Entity) -> Int {
            var depth = 0
            var current = entity
            while let name = current.superentityName, let parent = byName[name], depth < entities.count {
                depth += 1
                current = parent
            }
            return depth
        }
        for entity in entities.sorted(by: { depth($0) < depth($1) }) {
            guard let name = entity.superentityName, let superentity = byName[name] else { continue }
            entity.superentity = superentity
            entity.inheritedProperties = superentity.properties
            superentity.subentities.insert(entity)
        }
    }

    /// Fills `inverseName` from explicit `inverse:` key paths, and infers an inverse where exactly one
    /// relationship of the destination points back and no explicit inverse says otherwise.
    private static func resolveInverses(_ entities: [Entity], byName: [String: Entity]) {
        for entity in entities {
            for relationship in entity.storedProperties.compactMap({ $0 as? Relationship }) {
                guard let destination = byName[relationship.destination], let type = destination.modelType else { continue }
                if let inverse = relationship.inverseKeyPath {
                    relationship.inverseName = ModelTypeInfo.of(type).propertyName(for: inverse)
                    if let other = destination.relationshipsByName[relationship.inverseName ?? ""], other.inverseName == nil {
                        other.inverseName = relationship.name
                        other.inverseKeyPath = relationship.keypath
                    }
                }
            }
        }
        for entity in entities {
            for relationship in entity.storedProperties.compactMap({ $0 as? Relationship }) where relationship.inverseName == nil {
                guard let destination = byName[relationship.destination] else { continue }
                let candidates = destination.storedProperties.compactMap { $0 as? Relationship }.filter {
                    $0.destination == entity.name && ($0.inverseName == nil || $0.inverseName == relationship.name)
                        && !($0 === relationship)
                }
                if candidates.count == 1, let other = candidates.first {
                    relationship.inverseName = other.name
                    relationship.inverseKeyPath = other.keypath
                    other.inverseName = relationship.name
                    other.inverseKeyPath = relationship.keypath
                }
            }
        }
    }
}

/// The model types this process has built schemas for, by entity name. `DefaultSnapshot` decoding
/// looks property types up here, so decoders' strategies (dates, data) apply to each property.
///
/// Versions of a schema share entity names (`V1.Trip`, `V2.Trip`), so a name resolves first in
/// the schema of the work under way (``schemaInUse``: a store call, a served request, a migration
/// stage), and only then in the last schema built, which another thread may have changed.
package enum EntityRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var types: [String: any PersistentModel.Type] = [:]

    /// The schema whose types names resolve to first, for the work running inside ``resolving(in:_:)``.
    @TaskLocal package static var schemaInUse: Schema?

    /// Runs `body` with entity names resolving to `schema`'s model types first.
    package static func resolving<R>(in schema: Schema?, _ body: () throws -> R) rethrows -> R {
        try $schemaInUse.withValue(schema, operation: body)
    }

    static func register(_ modelTypes: [any PersistentModel.Type]) {
        lock.withLock {
            for type in modelTypes { types[String(describing: type)] = type }
        }
    }

    package static func modelType(named name: String) -> (any PersistentModel.Type)? {
        if let type = schemaInUse?.entitiesByName[name]?.modelType { return type }
        return lock.withLock { types[name] }
    }

    /// Whether the entity `name` is `ancestor` or one of its subentities (`is` in a predicate),
    /// by its model class's superclasses.
    package static func entity(_ name: String, isOrInheritsFrom ancestor: String) -> Bool {
        var info = modelType(named: name).map { ModelTypeInfo.of($0) }
        while let current = info {
            if current.entityName == ancestor { return true }
            info = current.superclassType.map { ModelTypeInfo.of($0) }
        }
        return name == ancestor
    }
}
