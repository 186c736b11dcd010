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
    }

    let entities: [String: Entity]

    init(_ schema: Schema) {
        var entities: [String: Entity] = [:]
        for entity in schema.entities {
            entities[entity.name] = Entity(
                attributes: Set(entity.attributes.map(\.name)),
                relationships: Dictionary(entity.relationships.map { ($0.name, ($0.destination, $0.isToMany)) },
                                          uniquingKeysWith: { first, _ in first }))
        }
        self.entities = entities
    }

    func entity(named name: String) throws -> Entity {
        guard let entity = entities[name] else {
            throw StoreServerError(.notFound, "The server's schema has no entity '\(name)' (it serves \(entities.keys.sorted().joined(separator: ", "))).")
        }
        return entity
    }
}
