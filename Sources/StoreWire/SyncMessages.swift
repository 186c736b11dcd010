import Foundation
import OpenSwiftData

/// A model's key in the server's store, as the sync endpoints spell it: a JSON number for an
/// integer primary key, a string for any other.
package enum SyncKey: Codable, Hashable, Sendable {
    case integer(Int64)
    case string(String)

    package init(_ key: PrimaryKey) {
        switch key {
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        }
    }

    package var primaryKey: PrimaryKey {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// A model named across the wire: `{"entity": "Trip", "key": 42}` for one the server stores, or
/// `{"entity": "Trip", "new": 0}` for the push's own insert at that index.
package struct SyncReference: Codable, Hashable, Sendable {
    package var entity: String
    package var key: SyncKey?
    package var new: Int?

    package init(entity: String, key: SyncKey) {
        self.entity = entity
        self.key = key
    }

    package init(_ identifier: PersistentIdentifier) {
        self.init(entity: identifier.entityName, key: SyncKey(identifier.primaryKey))
    }
}

/// Body of `sync/push` (with an `Idempotency-Key`): a client's changes since its last push,
/// applied in one transaction. `client` is the UUID the client keeps, `schemaVersion` its schema's
/// version, which must be the server's (as in every sync request).
/// Inserts carry every property, updates the changed ones; relationships name models by
/// ``SyncReference``.
package struct SyncPushRequest: Decodable, Sendable {
    package struct Insert: Decodable, Sendable {
        package var entity: String
        package var values: SyncValues

        private enum CodingKeys: String, CodingKey { case entity, values }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            entity = try container.decode(String.self, forKey: .entity)
            values = try SyncValues(entity: entity, from: container.superDecoder(forKey: .values))
        }
    }

    package struct Update: Decodable, Sendable {
        package var model: SyncReference
        package var values: SyncValues

        private enum CodingKeys: String, CodingKey { case model, values }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            model = try container.decode(SyncReference.self, forKey: .model)
            values = try SyncValues(entity: model.entity, from: container.superDecoder(forKey: .values))
        }
    }

    package var client: String
    package var schemaVersion: String
    package var inserts: [Insert]
    package var updates: [Update]
    package var deletes: [SyncReference]
}

/// Answer to `sync/push`: per insert, the key the server gave it (an upsert's is the existing
/// model's; null when the insert was dropped, because a model it belongs to by a cascading
/// relationship was deleted); the updates that found their model deleted; and the push's
/// history transaction.
package struct SyncPushResponse: Codable, Sendable {
    package var keys: [SyncKey?]
    package var skippedUpdates: [Int]
    package var token: Int64?

    package init(keys: [SyncKey?], skippedUpdates: [Int], token: Int64?) {
        self.keys = keys
        self.skippedUpdates = skippedUpdates
        self.token = token
    }
}

/// Body of `sync/conflicts`: the models a client is about to push, with the server's history
/// number it last pulled (`base`). Read-only.
package struct SyncConflictsRequest: Codable, Sendable {
    package struct Update: Codable, Sendable {
        package var model: SyncReference
        package var properties: [String]
    }

    package var client: String
    package var schemaVersion: String
    package var base: Int64?
    package var updates: [Update]
    package var deletes: [SyncReference]
}

/// Answer to `sync/conflicts`: what others changed after `base` that the push would overwrite.
package struct SyncConflictsResponse: Encodable, Sendable {
    package struct Conflict: Encodable, Sendable {
        package enum Kind: String, Codable, Sendable {
            /// The client and another writer both changed the property.
            case updateUpdate
            /// The client changed a model another writer deleted.
            case updateDelete
            /// The client deleted a model another writer changed.
            case deleteUpdate
        }

        package var kind: Kind
        /// Index into the request's updates (updateUpdate, updateDelete) or deletes (deleteUpdate).
        package var index: Int
        package var property: String?
        /// The server's model, for updateUpdate and deleteUpdate.
        package var row: SyncRow?

        package init(kind: Kind, index: Int, property: String?, row: SyncRow?) {
            self.kind = kind
            self.index = index
            self.property = property
            self.row = row
        }
    }

    package var token: Int64?
    package var conflicts: [Conflict]

    package init(token: Int64?, conflicts: [Conflict]) {
        self.token = token
        self.conflicts = conflicts
    }
}

/// Body of `sync/pull`: the server's changes after its history transaction `after`, at most
/// `limit` transactions.
package struct SyncPullRequest: Codable, Sendable {
    package var client: String
    package var schemaVersion: String
    package var after: Int64
    package var limit: Int?
}

/// One model a pull brings: its current row with the properties that changed (nil: all, an
/// insert), or its deletion.
package struct SyncChange: Encodable, Sendable {
    package var entity: String
    package var key: SyncKey
    package var deleted: Bool
    package var changed: [String]?
    package var row: SyncRow?

    package init(entity: String, key: SyncKey, deleted: Bool, changed: [String]?, row: SyncRow?) {
        self.entity = entity
        self.key = key
        self.deleted = deleted
        self.changed = changed
        self.row = row
    }
}

/// Answer to `sync/pull`: the changes of the transactions after `after` through `token`, one per
/// model in the order each was first changed; `latest` is the newest transaction (more to pull
/// while `token` is below it).
package struct SyncPullResponse: Encodable, Sendable {
    package var storeIdentifier: String
    package var token: Int64
    package var latest: Int64
    package var changes: [SyncChange]

    package init(storeIdentifier: String, token: Int64, latest: Int64, changes: [SyncChange]) {
        self.storeIdentifier = storeIdentifier
        self.token = token
        self.latest = latest
        self.changes = changes
    }
}

/// Body of `sync/snapshot`: every model of an entity, for a client's first sync. Without `keys`
/// the answer lists the keys of every model and the rows of the first `limit`; with `keys` it
/// has those models' rows.
package struct SyncSnapshotRequest: Codable, Sendable {
    package var client: String
    package var schemaVersion: String
    package var entity: String
    package var keys: [SyncKey]?
    package var limit: Int?
}

/// Answer to `sync/snapshot`. `token` is the newest history transaction before the models were
/// read: pulling after it brings every change the rows may miss.
package struct SyncSnapshotResponse: Encodable, Sendable {
    package var storeIdentifier: String
    package var token: Int64
    package var keys: [SyncKey]?
    package var rows: [SyncRow]

    package init(storeIdentifier: String, token: Int64, keys: [SyncKey]?, rows: [SyncRow]) {
        self.storeIdentifier = storeIdentifier
        self.token = token
        self.keys = keys
        self.rows = rows
    }
}

/// The wire code of a request whose schema version is not the server's.
extension WireErrorCode {
    package static let schemaVersionMismatch = "schemaVersionMismatch"
}
