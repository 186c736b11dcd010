import Foundation
import OpenSwiftData

/// A container's schema as the browser shows and queries it: each entity's properties in
/// declaration order, with the query type of each attribute.
struct BrowsedSchema: Sendable {
    struct Attribute: Sendable {
        let name: String
        let valueType: any Any.Type
        /// How queries see the attribute; nil for a type stores cannot compare (a `Codable` struct).
        let type: QueryValueType?
        /// The element type of a collection attribute, for `contains`.
        let elementType: QueryValueType?
        let isUnique: Bool
        let isOptional: Bool

        /// Sorting by it is what `SortDescriptor` offers, and `Bool` (false first).
        var isSortable: Bool {
            guard let kind = type?.kind else { return false }
            return [.integer, .double, .string, .date, .uuid, .bool].contains(kind)
        }
    }

    struct Relationship: Sendable {
        let name: String
        let destination: String
        let isToMany: Bool
        let isOptional: Bool
        let deleteRule: Schema.Relationship.DeleteRule
        let inverseName: String?
    }

    struct Entity: Sendable {
        let name: String
        let attributes: [Attribute]
        let relationships: [Relationship]
        let superentityName: String?
        let subentityNames: [String]
        let modelType: (any PersistentModel.Type)?

        func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
        func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
        /// The attributes that keyset paging can resume after: unique, never nil, sortable.
        func isKeysetColumn(_ attribute: Attribute) -> Bool {
            attribute.isUnique && !attribute.isOptional && attribute.isSortable && attribute.type?.kind != .bool
        }
    }

    /// The entities in the schema's order.
    let entities: [Entity]
    private let byName: [String: Int]

    init(_ schema: Schema) {
        entities = schema.entities.map(Self.entity)
        byName = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func entity(named name: String) throws -> Entity {
        guard let index = byName[name] else {
            throw BrowserError.notFound("The store has no entity named \(name); its entities are \(entities.map(\.name).joined(separator: ", ")).")
        }
        return entities[index]
    }

    /// Whether `name` is `ancestor` or inherits from it.
    func entity(_ name: String, isA ancestor: String) -> Bool {
        var current: String? = name
        var steps = 0
        while let candidate = current, steps <= entities.count {
            if candidate == ancestor { return true }
            current = byName[candidate].map { entities[$0].superentityName } ?? nil
            steps += 1
        }
        return false
    }

    private static func entity(_ entity: Schema.Entity) -> Entity {
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        for property in entity.properties where !property.isTransient {
            if let relationship = property as? Schema.Relationship {
                relationships.append(Relationship(name: relationship.name, destination: relationship.destination,
                                                  isToMany: relationship.isToMany, isOptional: relationship.isOptional,
                                                  deleteRule: relationship.deleteRule, inverseName: relationship.inverseName))
            } else if let attribute = property as? Schema.Attribute {
                let type = QueryValueType(swiftType: attribute.valueType)
                let element = (attribute.valueType as? any QueryCollectionType.Type).flatMap { QueryValueType(swiftType: $0.elementType) }
                attributes.append(Attribute(name: attribute.name, valueType: attribute.valueType, type: type, elementType: element,
                                            isUnique: attribute.isUnique || entity.uniquenessConstraints.contains([attribute.name]),
                                            isOptional: attribute.isOptional || (type?.isOptional ?? false)))
            }
        }
        return Entity(name: entity.name, attributes: attributes, relationships: relationships,
                      superentityName: entity.superentityName ?? entity.superentity?.name,
                      subentityNames: entity.subentities.map(\.name).sorted(), modelType: entity.modelType)
    }
}
