import Foundation
import SwiftData

/// Applying the server's changes to the local store, in one save under the engine's author:
/// the changed attributes and new models, then relationships, then deletes, so that the local
/// delete rules cascade along the relationships as the server holds them now. A property with an unpushed local change keeps the
/// local value unless a resolver decides otherwise: the local change reaches the server later,
/// so it is the last writer. A journal in the state lets the next process undo inserts of a save
/// whose map entries were not recorded (a crash between the two saves).
extension SyncWorker {
    private struct Journal: Codable {
        var token: DefaultHistoryToken?
    }

    /// What applying one page decided for one model that gets relationships.
    private struct Related {
        var model: any PersistentModel
        var entity: SyncEntity
        var row: SyncRow
        var isNew: Bool
        /// The properties to set: nil for all.
        var properties: Set<String>?
    }

    /// Applies `changes` and records `pulled` as the last pulled transaction (nil leaves it).
    /// `fresh`: no local model is mapped yet (a first sync), so new map entries need no lookup.
    func apply(_ incoming: [PulledChange], pulled: Int64?, fresh: Bool = false) async throws {
        try absorb()
        var changes = incoming
        var known = try state.locals(of: changes.map(\.model) + Self.references(changes))
        var included = Set(changes.filter { !$0.deleted }.map(\.model))
        // Rows name models as they are now, which may be newer than this page: fetch the ones
        // this client lacks so every relationship resolves.
        for _ in 0..<8 {
            let missing = Set(Self.references(changes)).subtracting(known.keys).subtracting(included)
            guard !missing.isEmpty else { break }
            let fetched = try await rows(of: missing)
            changes += fetched
            included.formUnion(fetched.map(\.model))
            known.merge(try state.locals(of: Self.references(fetched))) { first, _ in first }
        }
        try applyLocally(changes, known: known, pulled: pulled, fresh: fresh)
    }

    /// The current rows of server models, for changes that name them.
    func rows(of servers: Set<ServerModel>) async throws -> [PulledChange] {
        var changes: [PulledChange] = []
        for (entity, members) in Dictionary(grouping: servers, by: \.entity) {
            let decoder = SyncCoding.decoder(schema)
            decoder.userInfo[SyncRow.entityKey] = entity
            for chunk in members.map(\.key).chunked(configuration.snapshotPageSize) {
                let request = SnapshotRequest(client: client, schemaVersion: schema.version, entity: entity, keys: Array(chunk), limit: configuration.snapshotPageSize)
                let answer = try await transport.post(SyncPath.snapshot, request, as: SnapshotResponse.self, decoder: decoder)
                changes += answer.rows.map { PulledChange(model: ServerModel(entity: entity, key: $0.key), row: $0) }
            }
        }
        return changes
    }

    private static func references(_ changes: [PulledChange]) -> [ServerModel] {
        changes.flatMap { change -> [ServerModel] in
            (change.row?.values.values).map { values in
                values.flatMap { value -> [ServerModel] in
                    switch value {
                    case .attribute: []
                    case .toOne(let server): server.map { [$0] } ?? []
                    case .toMany(let servers): servers
                    }
                }
            } ?? []
        }
    }

    private func applyLocally(_ changes: [PulledChange], known: [ServerModel: PersistentIdentifier], pulled: Int64?, fresh: Bool) throws {
        let context = engineContext()
        try state.set("journal", Journal(token: try latestLocalToken(context)))
        try state.save()
        let original = try state.pending(of: known.values)
        var pending = original
        let models = try models(known.values, in: context)
        var created: [ServerModel: any PersistentModel] = [:]
        var mappedNow: [ServerModel: any PersistentModel] = [:]
        var unmapped: [ServerModel] = []
        var related: [Related] = []
        var deletedHere: Set<PersistentIdentifier> = []
        var adoptable = try uniqueIndex(in: context)

        for change in changes where !change.deleted {
            guard let row = change.row, let entity = schema[change.model.entity] else { continue }
            if let local = known[change.model] {
                if let model = models[local] {
                    let kept = try applyAttributes(row, change.changed, entity: entity, model: model, pending: &pending[local])
                    related.append(Related(model: model, entity: entity, row: row, isNew: false,
                                           properties: change.changed.map(Set.init).map { $0.subtracting(kept) } ?? Set(entity.properties.map(\.name)).subtracting(kept)))
                    continue
                }
                if pending[local]?.deleted == true {
                    // Deleted here and changed there: the delete wins unless the resolver keeps the server's model.
                    guard resolve(.deleteUpdate, entity: entity.name, local: local, property: nil, localValue: nil, serverValue: nil) == .keepServer else { continue }
                    pending[local] = nil
                    try state.store(PendingChange(local: local, entity: entity.name, sequence: 0, revision: 0, inserted: false, deleted: false, properties: [], server: nil))
                }
            } else if let (model, adopted) = adoptable.take(entity: entity, row: row) {
                // A #Unique model this client inserted and has not pushed: the server's is the
                // same model, and this client's values go up as its update.
                var mine: PendingChange? = adopted
                let kept = try applyAttributes(row, nil, entity: entity, model: model, pending: &mine)
                pending[model.persistentModelID] = mine
                mappedNow[change.model] = model
                related.append(Related(model: model, entity: entity, row: row, isNew: false,
                                       properties: Set(entity.properties.map(\.name)).subtracting(kept)))
                continue
            }
            let model = Self.make(entity.type)
            for property in entity.properties {
                switch property.access {
                case .attribute(let access):
                    if case .attribute(let value)? = row.values[property.name] { access.setFresh(value, on: model) }
                case .toMany(let access, _) where !property.travels:
                    access.setFresh([], on: model)
                default:
                    continue
                }
            }
            created[change.model] = model
            related.append(Related(model: model, entity: entity, row: row, isNew: true, properties: nil))
        }

        let target = { (server: ServerModel) -> (any PersistentModel)? in
            created[server] ?? mappedNow[server] ?? known[server].flatMap { models[$0] }
        }
        for item in related {
            try applyRelationships(item, target: target, pending: pending[item.model.persistentModelID])
            if item.isNew { context.insert(item.model) }
        }
        for change in changes where change.deleted {
            guard let local = known[change.model] else { continue }
            if var mine = pending[local], !mine.deleted, !mine.isEmpty {
                if resolve(.updateDelete, entity: change.model.entity, local: local, property: nil, localValue: nil, serverValue: nil) == .keepLocal {
                    // Kept: it goes up again as a new model.
                    mine.inserted = true
                    mine.revision += 1
                    pending[local] = mine
                    unmapped.append(change.model)
                    continue
                }
            }
            pending[local] = pending[local].map { PendingChange(local: $0.local, entity: $0.entity, sequence: $0.sequence, revision: $0.revision + 1,
                                                                 inserted: false, deleted: false, properties: [], server: nil) }
            if let model = models[local] {
                context.delete(model)
                deletedHere.insert(local)
            }
            unmapped.append(change.model)
        }
        try save(context)

        var baselines = try baselines(of: related)
        try state.prefetch(locals: (Array(created.values) + Array(mappedNow.values)).map(\.persistentModelID),
                           servers: unmapped + Array(created.keys) + Array(mappedNow.keys))
        for server in unmapped { try state.unmap(server: server) }
        for (server, model) in created {
            try state.map(model.persistentModelID, to: server, fresh: fresh, baseline: baselines.removeValue(forKey: model.persistentModelID))
        }
        for (server, model) in mappedNow {
            try state.map(model.persistentModelID, to: server, baseline: baselines.removeValue(forKey: model.persistentModelID))
        }
        try state.recordBaselines(baselines)
        for (local, change) in pending where original[local] != change { try state.store(change) }
        if !deletedHere.isEmpty { try recordCascades(since: try state.value("journal", as: Journal.self)?.token, besides: deletedHere, context: context) }
        if let pulled { try state.set("pulled", pulled) }
        try state.set("journal", Journal?.none)
        try state.save()
    }

    /// What the server holds of the models a save applied: the properties set from its rows
    /// (values the local store held already included), not those left to a local change.
    private func baselines(of applied: [Related]) throws -> [PersistentIdentifier: Data] {
        var baselines: [PersistentIdentifier: Data] = [:]
        for item in applied where !item.model.isDeleted {
            let names = Set(item.row.values.keys).intersection(item.properties ?? Set(item.entity.byName.keys))
            baselines[item.model.persistentModelID] = try state.baseline(of: item.model, entity: item.entity, names)
        }
        return baselines
    }

    /// Sets the row's changed attributes (all of them when `changed` is nil) that have no
    /// unpushed local change, or whose conflict the resolver gave to the server. Returns the
    /// properties left to the local value.
    private func applyAttributes(_ row: SyncRow, _ changed: [String]?, entity: SyncEntity, model: any PersistentModel,
                                 pending: inout PendingChange?) throws -> Set<String> {
        var kept: Set<String> = []
        for name in changed ?? entity.properties.map(\.name) {
            guard let property = entity.byName[name], property.travels else { continue }
            if let mine = pending, mine.inserted || mine.properties.contains(name) {
                let decision = resolve(.updateUpdate, entity: entity.name, local: model.persistentModelID, property: name,
                                       localValue: localValue(of: property, in: model), serverValue: try serverValue(row.values[name]))
                guard decision == .keepServer else {
                    kept.insert(name)
                    continue
                }
                pending?.properties.remove(name)
                pending?.revision += 1
            }
            guard case .attribute(let access) = property.access, case .attribute(let value)? = row.values[name] else { continue }
            if !access.holds(value, in: model) { access.set(value, on: model) }
        }
        return kept
    }

    private func applyRelationships(_ item: Related, target: (ServerModel) -> (any PersistentModel)?, pending: PendingChange?) throws {
        for property in item.entity.properties where property.travels && property.isRelationship {
            guard item.properties?.contains(property.name) ?? true, let value = item.row.values[property.name] else { continue }
            switch (property.access, value) {
            case (.optionalToOne(let access, _), .toOne(let server)):
                let new = server.flatMap(target)
                if item.isNew {
                    access.setFresh(new, on: item.model)
                } else if access.target(of: item.model)?.persistentModelID != new?.persistentModelID {
                    access.set(new, on: item.model)
                }
            case (.requiredToOne(let access, _), .toOne(let server)):
                guard let new = server.flatMap(target) else { continue }
                if item.isNew {
                    access.setFresh(new, on: item.model)
                } else if access.target(of: item.model)?.persistentModelID != new.persistentModelID {
                    access.set(new, on: item.model)
                }
            case (.toMany(let access, _), .toMany(let servers)):
                let new = servers.compactMap(target)
                if item.isNew {
                    access.setFresh(new, on: item.model)
                } else if access.targets(of: item.model).map(\.persistentModelID) != new.map(\.persistentModelID) {
                    access.set(new, on: item.model)
                }
            default:
                continue
            }
        }
    }

    /// Models the save deleted besides those the server deleted (the local delete rules'
    /// cascades) go to the server as deletes: there, they may still exist.
    private func recordCascades(since token: DefaultHistoryToken?, besides deleted: Set<PersistentIdentifier>, context: ModelContext) throws {
        let author = configuration.author
        let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: token.map { token in #Predicate { $0.token > token && $0.author == author } }
                                                                        ?? #Predicate { $0.author == author })
        var cascaded: [PersistentIdentifier] = []
        for transaction in try context.fetchHistory(descriptor) {
            for change in transaction.changes {
                if case .delete = change, !deleted.contains(change.changedPersistentIdentifier), schema[change.changedPersistentIdentifier.entityName] != nil {
                    cascaded.append(change.changedPersistentIdentifier)
                }
            }
        }
        guard !cascaded.isEmpty else { return }
        let servers = try state.servers(of: cascaded)
        var pending = try state.pending(of: cascaded)
        var sequence = try state.nextSequence()
        for local in cascaded {
            guard let server = servers[local] else { continue }
            var change = pending[local] ?? PendingChange(local: local, entity: local.entityName, sequence: sequence, revision: 0,
                                                           inserted: false, deleted: false, properties: [], server: nil)
            sequence += 1
            change.revision += 1
            change.deleted = true
            change.server = server
            pending[local] = change
            try state.store(change)
        }
    }

    /// Undoes the inserts of a pull whose map entries an earlier process did not record.
    func recoverPull() throws {
        guard let journal = try state.value("journal", as: Journal.self) else { return }
        let context = engineContext()
        let author = configuration.author
        let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: journal.token.map { token in #Predicate { $0.token > token && $0.author == author } }
                                                                        ?? #Predicate { $0.author == author })
        var inserted: [PersistentIdentifier] = []
        for transaction in try context.fetchHistory(descriptor) {
            for change in transaction.changes {
                if case .insert = change, schema[change.changedPersistentIdentifier.entityName] != nil { inserted.append(change.changedPersistentIdentifier) }
            }
        }
        let mapped = try state.servers(of: inserted)
        let orphans = inserted.filter { mapped[$0] == nil }
        if !orphans.isEmpty {
            for model in try models(orphans, in: context).values { context.delete(model) }
            try save(context)
        }
        try state.set("journal", Journal?.none)
        try state.save()
    }

    private func resolve(_ kind: SyncConflict.Kind, entity: String, local: PersistentIdentifier, property: String?,
                         localValue: Any?, serverValue: Any?) -> SyncConflict.Resolution {
        guard let resolver = configuration.resolver else {
            // The defaults: an unpushed local change is the later writer; a delete wins.
            return kind == .updateUpdate ? .keepLocal : (kind == .updateDelete ? .keepServer : .keepLocal)
        }
        return resolver(SyncConflict(kind: kind, entityName: entity, persistentIdentifier: local, property: property,
                                     localValue: localValue, serverValue: serverValue))
    }

    private static func make<M: PersistentModel>(_ type: M.Type) -> any PersistentModel {
        M(backingData: M.createBackingData())
    }
}
