import Foundation
import SwiftData

/// A model's row from the server: its key and its values, each attribute decoded as the local
/// model type declares it and each relationship as the server's models. Properties that do not
/// travel (a to-many side its inverse keeps) are skipped.
struct SyncRow: @unchecked Sendable {
    enum Value {
        case attribute(Any)
        case toOne(ServerModel?)
        case toMany([ServerModel])
    }

    static let schemaKey = CodingUserInfoKey(rawValue: "StoreSync.schema")!
    static let entityKey = CodingUserInfoKey(rawValue: "StoreSync.entity")!

    let key: ServerKey
    let values: [String: Value]

    private enum CodingKeys: String, CodingKey { case key, values }

    init(entity name: String, from decoder: any Decoder) throws {
        guard let schema = decoder.userInfo[Self.schemaKey] as? SyncSchema else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Rows are decoded with the synced schema."))
        }
        guard let entity = schema[name] else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "The server sent a model of \(name), which this client does not sync."))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(ServerKey.self, forKey: .key)
        let fields = try container.nestedContainer(keyedBy: PropertyKey.self, forKey: .values)
        var values: [String: Value] = [:]
        for field in fields.allKeys {
            guard let property = entity.byName[field.stringValue], property.travels else { continue }
            switch property.access {
            case .attribute(let access):
                values[property.name] = .attribute(try access.decode(from: fields, forKey: field))
            case .optionalToOne(_, let destination), .requiredToOne(_, let destination):
                let reference = try fields.decodeIfPresent(WireReference.self, forKey: field)
                values[property.name] = .toOne(reference.flatMap { reference in
                    reference.key.map { ServerModel(entity: schema[reference.entity] == nil ? destination : reference.entity, key: $0) }
                })
            case .toMany(_, let destination):
                let references = try fields.decodeIfPresent([WireReference].self, forKey: field) ?? []
                values[property.name] = .toMany(references.compactMap { reference in
                    reference.key.map { ServerModel(entity: schema[reference.entity] == nil ? destination : reference.entity, key: $0) }
                })
            }
        }
        self.values = values
    }
}
