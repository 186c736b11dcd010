import Foundation
import OpenSwiftData
import StoreWire

/// Checks a save body's snapshots against the schema before they are decoded as snapshots:
/// decoding alone would skip names it does not know, and a property the server lacks would be
/// dropped silently.
struct SaveValidation {
    let schema: ServedSchema

    /// Just enough of each snapshot to check it: its identifier and the names it carries.
    private struct Shape: Decodable {
        struct Snapshot: Decodable {
            let persistentIdentifier: PersistentIdentifier
            let names: [String]

            private struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: Key(stringValue: "persistentIdentifier"))
                names = container.allKeys.map(\.stringValue).filter { $0 != "persistentIdentifier" }
            }
        }

        let inserted: [Snapshot]
        let updated: [Snapshot]
        let deleted: [Snapshot]
    }

    func validate(_ data: Data, body: JSONBody) throws {
        let shape = try body.decode(Shape.self, from: data)
        for (list, snapshots) in [("inserted", shape.inserted), ("updated", shape.updated), ("deleted", shape.deleted)] {
            for (index, snapshot) in snapshots.enumerated() {
                let entityName = snapshot.persistentIdentifier.entityName
                let entity = try schema.entity(named: entityName)
                let known = Set(entity.propertyNames)
                if let unknown = snapshot.names.first(where: { !known.contains($0) }) {
                    throw StoreServerError(.invalidRequest, "\(list)[\(index)] is a \(entityName) with a property '\(unknown)' the server's schema does not have (its properties: \(entity.propertyNames.joined(separator: ", "))); update the server's models.")
                }
            }
        }
    }
}
