import Foundation

/// What a store records about the schema its data was last written with: the version and a
/// fingerprint of each entity, like Core Data's version hashes.
///
/// A store keeps it beside its data and rewrites it in the transaction that changes the data's
/// shape, so the record never disagrees with the data. ``SchemaMigrator`` compares it with the
/// versions of a ``SchemaMigrationPlan`` to find where the store stands.
///
/// ```swift
/// let record = StoredSchema(Schema(versionedSchema: TripsV2.self))
/// try JSONEncoder().encode(record)        // {"entities":{"Trip":"9c0e…"},"version":"2.0.0"}
/// ```
public struct StoredSchema: Codable, Hashable, Sendable {
    /// The version the data was written with.
    public var version: Schema.Version
    /// Per entity name, the fingerprint of its persisted shape (``fingerprint(of:)``).
    public var entities: [String: String]

    /// A record of a store written with `version`, its entities' fingerprints by name.
    public init(version: Schema.Version, entities: [String: String]) {
        self.version = version
        self.entities = entities
    }

    /// The record of a schema, under its own version or another one.
    public init(_ schema: Schema, version: Schema.Version? = nil) {
        self.version = version ?? schema.version
        entities = Dictionary(schema.entities.map { ($0.name, Self.fingerprint(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether both describe the same persisted shape, whatever their versions.
    public func hasSameShape(as other: StoredSchema) -> Bool {
        entities == other.entities
    }

    /// A stable digest (64-bit FNV-1a, hex) of everything about an entity that decides how its
    /// data is stored: each persisted attribute's name, type, optionality, options and hash
    /// modifier; each relationship's name, destination, cardinality, inverse and delete rule; the
    /// uniqueness constraints and indexes; a subclass's superentity. Original names are left out:
    /// a rename changes the name.
    public static func fingerprint(of entity: Schema.Entity) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in shape(of: entity).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The canonical text the fingerprint digests; properties in name order.
    static func shape(of entity: Schema.Entity) -> String {
        var lines = ["entity \(entity.name)"]
        // A class that joins or leaves a hierarchy moves its rows (the SQLite store keeps a
        // hierarchy in one table) even when its properties stay; entities without one read as before.
        if let superentity = entity.superentityName { lines.append("superentity \(superentity)") }
        for property in entity.properties.sorted(by: { $0.name < $1.name }) {
            if let attribute = property as? Schema.Attribute {
                guard !attribute.isTransient else { continue }
                let options = attribute.options.map(\.debugDescription).sorted().joined(separator: ",")
                lines.append("attribute \(attribute.name): \(typeName(attribute.valueType)) optional=\(attribute.isOptional) options=[\(options)] hash=\(attribute.hashModifier ?? "")")
            } else if let relationship = property as? Schema.Relationship {
                lines.append("relationship \(relationship.name): \(relationship.destination) toMany=\(relationship.isToMany) optional=\(relationship.isOptional) inverse=\(relationship.inverseName ?? "") delete=\(relationship.deleteRule.rawValue) hash=\(relationship.hashModifier ?? "")")
            }
        }
        for constraint in entity.uniquenessConstraints { lines.append("unique \(constraint.joined(separator: ","))") }
        for index in entity.indices { lines.append("index \(index.joined(separator: ","))") }
        return lines.joined(separator: "\n")
    }

    /// Unqualified, so a type nested in a `VersionedSchema` enum (`V1.Status`) reads as in
    /// every other version that declares it the same.
    private static func typeName(_ type: any Any.Type) -> String {
        String(describing: type)
    }
}

extension StoredSchema: CustomStringConvertible {
    /// The version and the entity names, for logs and errors.
    public var description: String {
        "\(version) (\(entities.keys.sorted().joined(separator: ", ")))"
    }
}
