import Foundation
import SwiftData

/// One synced property of a model type, with the access its key path gives.
struct SyncProperty: @unchecked Sendable {
    enum Access {
        case attribute(any AttributeAccess)
        case optionalToOne(any OptionalToOneAccess, destination: String)
        case requiredToOne(any RequiredToOneAccess, destination: String)
        case toMany(any ToManyAccess, destination: String)
    }

    let name: String
    let keyPath: AnyKeyPath
    let access: Access
    /// Whether this side of a relationship travels: a to-one side (its to-many inverse follows
    /// from it), one side of a many-to-many pair, and every relationship without an inverse.
    let travels: Bool

    var isRelationship: Bool {
        if case .attribute = access { return false }
        return true
    }

    var destination: String? {
        switch access {
        case .attribute: nil
        case .optionalToOne(_, let destination), .requiredToOne(_, let destination), .toMany(_, let destination): destination
        }
    }
}

/// A synced model type: its entity name and the properties that travel.
struct SyncEntity: @unchecked Sendable {
    let name: String
    let type: any PersistentModel.Type
    /// Every persisted property that travels, in declaration order.
    let properties: [SyncProperty]
    let byName: [String: SyncProperty]
    let byKeyPath: [AnyKeyPath: SyncProperty]
    /// The attribute names of each `#Unique` constraint.
    let uniquenessConstraints: [[String]]
}

/// The synced model types, read once from their schema metadata and the container's schema.
struct SyncSchema: @unchecked Sendable {
    let entities: [String: SyncEntity]
    /// Entity names in an order where each to-one relationship's destination comes before its
    /// source when it can (cycles are broken), so a first sync finds most related models made.
    let insertionOrder: [String]
    /// The container schema's version, which the server's must equal.
    let version: String

    init(models: [any PersistentModel.Type], schema: Schema) throws {
        var entities: [String: SyncEntity] = [:]
        let types = Dictionary(models.map { (Schema.entityName(for: $0), $0) }, uniquingKeysWith: { first, _ in first })
        for type in models {
            let entity = try Self.entity(type, in: schema, types: types)
            entities[entity.name] = entity
        }
        for entity in entities.values {
            for property in entity.properties {
                if let destination = property.destination, entities[destination] == nil {
                    throw SyncError(.invalidConfiguration, "\(entity.name).\(property.name) relates to \(destination), which is not among the synced models; add \(destination) to SyncConfiguration.models.")
                }
            }
        }
        self.entities = entities
        insertionOrder = Self.order(entities)
        version = schema.version.description
    }

    subscript(name: String) -> SyncEntity? { entities[name] }

    private static func entity(_ type: any PersistentModel.Type, in schema: Schema,
                               types: [String: any PersistentModel.Type]) throws -> SyncEntity {
        let name = Schema.entityName(for: type)
        guard let described = schema.entitiesByName[name] else {
            throw SyncError(.invalidConfiguration, "\(name) is not in the container's schema; create the container with every synced model type.")
        }
        var properties: [SyncProperty] = []
        for (propertyName, keyPath, owner) in try metadata(of: name, in: schema, types: types) where !properties.contains(where: { $0.name == propertyName }) {
            let declaring = schema.entitiesByName[owner] ?? described
            if let attribute = declaring.attributesByName[propertyName] {
                if attribute.isTransient || attribute.options.contains(.ephemeral) { continue }
                guard let access = keyPath as? any AttributeAccess else {
                    throw SyncError(.invalidConfiguration, "\(name).\(propertyName) is not Codable, so it cannot travel to the server; make its type Codable or mark it @Transient.")
                }
                properties.append(SyncProperty(name: propertyName, keyPath: keyPath, access: .attribute(access), travels: true))
            } else if let relationship = declaring.relationshipsByName[propertyName] {
                let destination = relationship.destination
                let access: SyncProperty.Access
                if let toMany = keyPath as? any ToManyAccess {
                    access = .toMany(toMany, destination: destination)
                } else if let toOne = keyPath as? any OptionalToOneAccess {
                    access = .optionalToOne(toOne, destination: destination)
                } else if let toOne = keyPath as? any RequiredToOneAccess {
                    access = .requiredToOne(toOne, destination: destination)
                } else {
                    throw SyncError(.invalidConfiguration, "\(name).\(propertyName) is a relationship of a shape the engine cannot read.")
                }
                properties.append(SyncProperty(name: propertyName, keyPath: keyPath, access: access,
                                               travels: travels(relationship, of: owner, in: schema)))
            }
        }
        return SyncEntity(name: name, type: type, properties: properties,
                          byName: Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
                          byKeyPath: Dictionary(properties.map { ($0.keyPath, $0) }, uniquingKeysWith: { first, _ in first }),
                          uniquenessConstraints: described.uniquenessConstraints)
    }

    /// Which side of a relationship pair travels. A to-many side whose inverse is to-one is kept
    /// by the inverse: sending the whole list would undo another client's concurrent additions.
    private static func travels(_ relationship: Schema.Relationship, of entity: String, in schema: Schema) -> Bool {
        guard let inverseName = relationship.inverseName,
              let inverse = schema.entitiesByName[relationship.destination]?.relationshipsByName[inverseName] else { return true }
        switch (relationship.isToOneRelationship, inverse.isToOneRelationship) {
        case (true, _): return true
        case (false, true): return false
        case (false, false): return "\(entity).\(relationship.name)" <= "\(relationship.destination).\(inverseName)"
        }
    }

    /// Each persisted property's name and key path, the entity's own and its superentities'
    /// (whose model types must be synced too). `Schema.PropertyMetadata` shows its fields to
    /// reflection only: SwiftData declares them internal, and the key paths are what reading
    /// and writing values needs.
    private static func metadata(of entity: String, in schema: Schema,
                                 types: [String: any PersistentModel.Type]) throws -> [(String, AnyKeyPath, String)] {
        var entries: [(String, AnyKeyPath, String)] = []
        var current: String? = entity
        while let name = current {
            guard let model = types[name] else {
                throw SyncError(.invalidConfiguration, "\(entity) inherits from \(name), which is not among the synced models; add \(name) to SyncConfiguration.models.")
            }
            for entry in model.schemaMetadata {
                var propertyName: String?
                var keyPath: AnyKeyPath?
                for child in Mirror(reflecting: entry).children {
                    if child.label == "name" { propertyName = child.value as? String }
                    if child.label == "keypath" { keyPath = child.value as? AnyKeyPath }
                }
                guard let propertyName, let keyPath, !propertyName.hasPrefix("SwiftData.") else { continue }
                entries.append((propertyName, keyPath, name))
            }
            current = schema.entitiesByName[name]?.superentityName
        }
        return entries
    }

    private static func order(_ entities: [String: SyncEntity]) -> [String] {
        var ordered: [String] = []
        var visiting: Set<String> = []
        func visit(_ name: String) {
            guard !ordered.contains(name), !visiting.contains(name), let entity = entities[name] else { return }
            visiting.insert(name)
            for property in entity.properties where property.travels {
                if case .optionalToOne(_, let destination) = property.access { visit(destination) }
                if case .requiredToOne(_, let destination) = property.access { visit(destination) }
            }
            visiting.remove(name)
            ordered.append(name)
        }
        for name in entities.keys.sorted() { visit(name) }
        return ordered
    }
}
