import Foundation
import OpenSwiftData
import StoreWire

extension SaveValidation {
    /// Checks the decoded snapshots before a store sees them, so every store answers the same 400:
    /// each value one that every store keeps (``StorableValues``), each relationship pointing at
    /// models of its destination entity (a store would drop or misfile another), and each update
    /// naming a model of this store.
    func validate(_ changes: SaveRequest, storeIdentifier: String) throws {
        for (list, snapshots) in [("inserted", changes.inserted), ("updated", changes.updated)] {
            for (index, snapshot) in snapshots.enumerated() {
                if let problem = StorableValues.problem(in: snapshot) {
                    throw StoreServerError(.invalidRequest, "\(list)[\(index)] is refused: \(problem). Nothing was saved.")
                }
                try checkRelationships(of: snapshot, at: "\(list)[\(index)]")
            }
        }
        for (index, snapshot) in changes.updated.enumerated() {
            let identifier = snapshot.persistentIdentifier
            if identifier.isTemporary || identifier.storeIdentifier != storeIdentifier {
                throw Self.missing(index, identifier)
            }
        }
    }

    /// An update of a model the store does not hold.
    static func missing(_ index: Int, _ identifier: PersistentIdentifier) -> StoreServerError {
        StoreServerError(.invalidRequest, "updated[\(index)] is a \(identifier.entityName) that does not exist in this store (it was deleted, or never saved here); fetch it again before changing it, or send it in 'inserted'. Nothing was saved.")
    }

    private func checkRelationships(of snapshot: DefaultSnapshot, at position: String) throws {
        let entityName = snapshot.persistentIdentifier.entityName
        let entity = try schema.entity(named: entityName)
        for (name, value) in snapshot.values {
            guard let relationship = entity.relationships[name] else { continue }
            guard let present = unwrapOptional(value.value) else { continue }
            let related = (present as? PersistentIdentifier).map { [$0] } ?? present as? [PersistentIdentifier] ?? []
            if let wrong = related.first(where: { !schema.entity($0.entityName, isA: relationship.destination) }) {
                throw StoreServerError(.invalidRequest, "\(position).\(name) refers to a \(wrong.entityName), but \(entityName).\(name) holds \(relationship.destination) models. Nothing was saved.")
            }
        }
    }
}
