import Foundation

/// A model's key in the server's store: a JSON number for an integer key, a string otherwise.
enum ServerKey: Codable, Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        }
    }
}

/// A model of the server's store: its entity and key. Its text form (`Trip#42`) keys the
/// engine's identity map.
struct ServerModel: Hashable, Sendable {
    let entity: String
    let key: ServerKey

    var text: String {
        switch key {
        case .integer(let value): "\(entity)#\(value)"
        case .string(let value): "\(entity)$\(value)"
        }
    }

    init(entity: String, key: ServerKey) {
        self.entity = entity
        self.key = key
    }

    init?(text: String) {
        if let mark = text.firstIndex(of: "#"), let value = Int64(text[text.index(after: mark)...]) {
            self.init(entity: String(text[..<mark]), key: .integer(value))
        } else if let mark = text.firstIndex(of: "$") {
            self.init(entity: String(text[..<mark]), key: .string(String(text[text.index(after: mark)...])))
        } else {
            return nil
        }
    }
}

/// A model named on the wire: by its server key, or (in a push) by the index of the push's own
/// insert that makes it.
struct WireReference: Codable, Hashable, Sendable {
    var entity: String
    var key: ServerKey?
    var new: Int?

    init(_ model: ServerModel) {
        entity = model.entity
        key = model.key
    }

    init(entity: String, new: Int) {
        self.entity = entity
        self.new = new
    }

    var model: ServerModel? { key.map { ServerModel(entity: entity, key: $0) } }
}

/// The JSON coders of the sync protocol: Swift's own `Codable` forms (dates as seconds since the
/// reference date, data as Base64), and non-finite doubles spelled as strings, which JSON lacks.
enum SyncCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+infinity", negativeInfinity: "-infinity", nan: "nan")
        return encoder
    }

    static func decoder(_ schema: SyncSchema? = nil) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+infinity", negativeInfinity: "-infinity", nan: "nan")
        if let schema { decoder.userInfo[SyncRow.schemaKey] = schema }
        return decoder
    }
}

/// The API's paths, under the server URL.
enum SyncPath {
    static let push = "v1/sync/push"
    static let pull = "v1/sync/pull"
    static let snapshot = "v1/sync/snapshot"
    static let conflicts = "v1/sync/conflicts"
    static let events = "v1/history/events"
}

/// Body of `sync/pull`.
struct PullRequest: Encodable {
    var client: String
    var schemaVersion: String
    var after: Int64
    var limit: Int
}

/// Answer to `sync/pull`.
struct PullResponse: Decodable {
    var storeIdentifier: String
    var token: Int64
    var latest: Int64
    var changes: [PulledChange]
}

/// One model a pull brings.
struct PulledChange: Decodable {
    var model: ServerModel
    var deleted: Bool
    /// The properties that changed; nil for a model new to the client (all of them).
    var changed: [String]?
    var row: SyncRow?

    private enum CodingKeys: String, CodingKey { case entity, key, deleted, changed, row }

    init(model: ServerModel, row: SyncRow) {
        self.model = model
        deleted = false
        changed = nil
        self.row = row
    }

    init(deleted model: ServerModel) {
        self.model = model
        deleted = true
        changed = nil
        row = nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entity = try container.decode(String.self, forKey: .entity)
        model = ServerModel(entity: entity, key: try container.decode(ServerKey.self, forKey: .key))
        deleted = try container.decode(Bool.self, forKey: .deleted)
        changed = try container.decodeIfPresent([String].self, forKey: .changed)
        if container.contains(.row), try !container.decodeNil(forKey: .row) {
            row = try SyncRow(entity: entity, from: container.superDecoder(forKey: .row))
        } else {
            row = nil
        }
    }
}

/// Body of `sync/snapshot`.
struct SnapshotRequest: Encodable {
    var client: String
    var schemaVersion: String
    var entity: String
    var keys: [ServerKey]?
    var limit: Int
}

/// Answer to `sync/snapshot`; its rows are of the requested entity (``SyncRow/entityKey``).
struct SnapshotResponse: Decodable {
    var storeIdentifier: String
    var token: Int64
    var keys: [ServerKey]?
    var rows: [SyncRow]

    private enum CodingKeys: String, CodingKey { case storeIdentifier, token, keys, rows }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storeIdentifier = try container.decode(String.self, forKey: .storeIdentifier)
        token = try container.decode(Int64.self, forKey: .token)
        keys = try container.decodeIfPresent([ServerKey].self, forKey: .keys)
        guard let entity = decoder.userInfo[SyncRow.entityKey] as? String else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "A snapshot is decoded for one entity."))
        }
        var list = try container.nestedUnkeyedContainer(forKey: .rows)
        var rows: [SyncRow] = []
        while !list.isAtEnd { rows.append(try SyncRow(entity: entity, from: list.superDecoder())) }
        self.rows = rows
    }
}

/// Answer to `sync/push`.
struct PushResponse: Codable {
    var keys: [ServerKey?]
    var skippedUpdates: [Int]
    var token: Int64?
}

/// Body of `sync/conflicts`.
struct ConflictsRequest: Encodable {
    struct Update: Encodable {
        var model: WireReference
        var properties: [String]
    }

    var client: String
    var schemaVersion: String
    var base: Int64?
    var updates: [Update]
    var deletes: [WireReference]
}

/// Answer to `sync/conflicts`.
struct ConflictsResponse: Decodable {
    struct Conflict: Decodable {
        var kind: SyncConflict.Kind
        var index: Int
        var property: String?
        var row: SyncRow?

        private enum CodingKeys: String, CodingKey { case kind, index, property, row }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(SyncConflict.Kind.self, forKey: .kind)
            index = try container.decode(Int.self, forKey: .index)
            property = try container.decodeIfPresent(String.self, forKey: .property)
            if let entities = decoder.userInfo[SyncRow.entityKey] as? ConflictEntities,
               let name = kind == .deleteUpdate ? entities.deletes[safe: index] : entities.updates[safe: index],
               container.contains(.row), try !container.decodeNil(forKey: .row) {
                row = try SyncRow(entity: name, from: container.superDecoder(forKey: .row))
            }
        }
    }

    /// The entity of each update and delete of the request, which the answer's rows are of.
    struct ConflictEntities {
        var updates: [String]
        var deletes: [String]
    }

    var token: Int64?
    var conflicts: [Conflict]
}

extension SyncConflict.Kind: Decodable {}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// The body of every error answer: `{"error": {"code": "…", "message": "…"}}`.
struct ErrorBody: Decodable {
    struct Detail: Decodable {
        var code: String
        var message: String
    }

    var error: Detail
}
