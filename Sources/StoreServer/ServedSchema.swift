import Foundation
import OpenSwiftData

/// The entities and properties a server accepts by name: everything a request names is checked
/// here before a store sees it, so only the schema's own names ever reach a query.
struct ServedSchema: Sendable {
    struct Entity: Sendable {
        var attributes: Set<String>
        /// Relationship name → destination entity and whether it is to-many.
        var relationships: [String: (destination: String, isToMany: Bool)]

        var propertyNames: [String] { (Array(attributes) + relationships.keys).sorted() }
        /// The entity it inherits from, if any.
        var superentityName: String?
    }

    let entities: [String: Entity]

    init(_ schema: Schema) {
        var entities: [String: Entity] = [:]
        for entity in schema.entities {
            entities[entity.name] = Entity(
                attributes: Set(entity.attributes.map(\.name)),
                relationships: Dictionary(entity.relationships.map { ($0.name, ($0.destination, $0.isToMany)) },
                                          uniquingKeysWith: { first, _ in first }),
                superentityName: entity.superentityName ?? entity.superentity?.name)
        }
        self.entities = entities
    }

    /// Whether a model of `entityName` may stand where `destination` is expected: the same entity,
    /// or one that inherits from it.
    func entity(_ entityName: String, isA destination: String) -> Bool {
        var current: String? = entityName
        var steps = 0
        while let name = current, steps <= entities.count {
            if name == destination { return true }
            current = entities[name]?.superentityName
            steps += 1
        }
        return false
    }

    func entity(named name: String) throws -> Entity {
        guard let entity = entities[name] else {
            throw StoreServerError(.notFound, "The server's schema has no entity '\(name)' (it serves \(entities.keys.sorted().joined(separator: ", "))).")
        }
        return entity
    }
}
