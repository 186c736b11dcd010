import Foundation
import SwiftData

/// One push before it is encoded: the local models to insert, the properties to update, the
/// server models to delete, and the pending changes it settles once answered.
struct PushPlan {
    struct Insert {
        var entity: SyncEntity
        var model: any PersistentModel
    }

    struct Update {
        var server: ServerModel
        var entity: SyncEntity
        var model: any PersistentModel
        var properties: [String]
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [ServerModel] = []
    var sent: [PendingChange] = []
    /// The server model of each mapped local model the plan names.
    var servers: [PersistentIdentifier: ServerModel] = [:]
    /// The index of each local model the plan inserts.
    var insertIndex: [PersistentIdentifier: Int] = [:]

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    /// A reference to a related local model: by server key, or by the index of its insert.
    func reference(to identifier: PersistentIdentifier) -> WireReference? {
        if let index = insertIndex[identifier] { return WireReference(entity: identifier.entityName, new: index) }
        return servers[identifier].map(WireReference.init)
    }

    mutating func insert(_ model: any PersistentModel, entity: SyncEntity) {
        insertIndex[model.persistentModelID] = inserts.count
        inserts.append(Insert(entity: entity, model: model))
    }

    /// Turns an update into an insert of the whole model (a resolver kept a model another writer
    /// deleted): it gets a new server identity.
    mutating func reinsert(update index: Int) {
        let update = updates.remove(at: index)
        servers[update.model.persistentModelID] = nil
        insert(update.model, entity: update.entity)
    }
}

/// A push as it is sent, kept in the engine's state until answered so a retry after a crash or a
/// lost answer sends the same bytes with the same idempotency key.
struct Outbox: Codable {
    struct Sent: Codable {
        var local: String
        var revision: Int
    }

    var key: String
    var body: Data
    /// The local model of each insert, in order.
    var inserts: [String]
    /// The server models deleted.
    var deletes: [String]
    var sent: [Sent]
    /// What the server holds of each model sent once it has applied the push, by local model
    /// (``SyncState/baseline(of:entity:_:)``); nil in an outbox of an engine that kept none.
    var baselines: [String: Data]?
}

/// The body of `sync/push`, encoded from the models as they are now.
struct PushBody: Encodable {
    let client: String
    let schemaVersion: String
    let plan: PushPlan

    private enum CodingKeys: String, CodingKey { case client, schemaVersion, inserts, updates, deletes }
    private enum ModelKeys: String, CodingKey { case entity, model, values }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(client, forKey: .client)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        var inserts = container.nestedUnkeyedContainer(forKey: .inserts)
        for insert in plan.inserts {
            var entry = inserts.nestedContainer(keyedBy: ModelKeys.self)
            try entry.encode(insert.entity.name, forKey: .entity)
            var values = entry.nestedContainer(keyedBy: PropertyKey.self, forKey: .values)
            try encode(insert.model, insert.entity.properties.filter(\.travels), into: &values)
        }
        var updates = container.nestedUnkeyedContainer(forKey: .updates)
        for update in plan.updates {
            var entry = updates.nestedContainer(keyedBy: ModelKeys.self)
            try entry.encode(WireReference(update.server), forKey: .model)
            var values = entry.nestedContainer(keyedBy: PropertyKey.self, forKey: .values)
            try encode(update.model, update.properties.compactMap { update.entity.byName[$0] }, into: &values)
        }
        try container.encode(plan.deletes.map(WireReference.init), forKey: .deletes)
    }

    private func encode(_ model: any PersistentModel, _ properties: [SyncProperty], into values: inout KeyedEncodingContainer<PropertyKey>) throws {
        for property in properties {
            let key = PropertyKey(property.name)
            switch property.access {
            case .attribute(let access):
                try access.encode(of: model, into: &values, forKey: key)
            case .optionalToOne(let access, _):
                try values.encode(access.target(of: model).flatMap { plan.reference(to: $0.persistentModelID) }, forKey: key)
            case .requiredToOne(let access, _):
                try values.encode(access.target(of: model).flatMap { plan.reference(to: $0.persistentModelID) }, forKey: key)
            case .toMany(let access, _):
                try values.encode(access.targets(of: model).compactMap { plan.reference(to: $0.persistentModelID) }, forKey: key)
            }
        }
    }
}
