import Foundation
import SwiftData

/// Reading local saves into the pending changes. The engine reads the local history since its
/// last read (leaving out its own transactions) and keeps what changed in its state, so that
/// the local store's history retention cannot drop a change the engine has read and not pushed.
extension SyncWorker {
    private static let historyPage = 500

    /// One local change, as the history has it.
    private enum Event {
        case insert
        case update([AnyKeyPath])
        case delete
    }

    func absorb() throws {
        let context = ModelContext(container)
        guard try state.value("scanned", as: Bool.self) == true else { return try scan(context, afterExpiry: false) }
        var token = try state.value("absorbed", as: DefaultHistoryToken.self)
        // No token: the history was empty at the last scan, and history deleted since cannot be
        // told from none, so a history that has transactions now means taking stock again.
        if token == nil, try latestLocalToken(context) != nil { return try scan(context, afterExpiry: false) }
        while true {
            let after = token
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: after.map { after in #Predicate { $0.token > after } })
            descriptor.fetchLimit = UInt64(Self.historyPage)
            let transactions: [DefaultHistoryTransaction]
            do {
                transactions = try context.fetchHistory(descriptor)
            } catch SwiftDataError.historyTokenExpired {
                return try scan(context, afterExpiry: true)
            } catch {
                throw SyncError(.localStoreFailure, "The local store's history could not be read (\(error)); sync needs a store that keeps history (the default store, JSONStore with history, InMemoryStore).")
            }
            guard let last = transactions.last else { return }
            try record(transactions.filter { $0.author != configuration.author })
            token = last.token
            try state.set("absorbed", token)
            try state.save()
            if transactions.count < Self.historyPage { return }
        }
    }

    private func record(_ transactions: [DefaultHistoryTransaction]) throws {
        var events: [(PersistentIdentifier, Event)] = []
        for transaction in transactions {
            for change in transaction.changes {
                guard schema[change.changedPersistentIdentifier.entityName] != nil else { continue }
                // Matched case by case: the enum may gain cases in later SwiftData releases.
                if case .insert = change {
                    events.append((change.changedPersistentIdentifier, .insert))
                } else if case .update(let update) = change {
                    events.append((change.changedPersistentIdentifier, .update(Self.keyPaths(of: update))))
                } else if case .delete = change {
                    events.append((change.changedPersistentIdentifier, .delete))
                }
            }
        }
        guard !events.isEmpty else { return }
        let identifiers = Set(events.map(\.0))
        var pending = try state.pending(of: identifiers)
        let servers = try state.servers(of: identifiers)
        // A push whose answer has not come yet may have inserted these on the server: their
        // server identities are known once it is settled, before the next plan is made. Read
        // only for a delete of a model with no server identity.
        var unanswered: Set<String>?
        func isUnanswered(_ identifier: PersistentIdentifier) throws -> Bool {
            if unanswered == nil { unanswered = Set(try state.value("outbox", as: Outbox.self)?.inserts ?? []) }
            return try unanswered?.contains(state.text(identifier)) == true
        }
        var sequence = try state.nextSequence()
        for (identifier, event) in events {
            guard let entity = schema[identifier.entityName] else { continue }
            var change = pending[identifier] ?? {
                defer { sequence += 1 }
                return PendingChange(local: identifier, entity: entity.name, sequence: sequence, revision: 0,
                                     inserted: false, deleted: false, properties: [], server: nil)
            }()
            change.revision += 1
            switch event {
            case .insert:
                change.inserted = true
                change.deleted = false
            case .update(let keyPaths):
                change.properties.formUnion(Self.names(keyPaths, in: entity))
            case .delete:
                if let server = servers[identifier] ?? change.server {
                    change.deleted = true
                    change.server = server
                } else if try isUnanswered(identifier) {
                    change.inserted = false
                    change.deleted = true
                    change.properties = []
                } else {
                    // Inserted and deleted before any push: the server never hears of it.
                    change.inserted = false
                    change.properties = []
                }
            }
            pending[identifier] = change
        }
        for identifier in identifiers {
            if let change = pending[identifier] { try state.store(change) }
        }
    }

    private static func keyPaths<U: HistoryUpdate>(of update: U) -> [AnyKeyPath] {
        update.updatedAttributes.map { $0 as AnyKeyPath }
    }

    /// The travelling properties among those an update changed; every one when it names a key
    /// path the engine does not know (a change must never go unsent for want of a name).
    private static func names(_ keyPaths: [AnyKeyPath], in entity: SyncEntity) -> [String] {
        var names: [String] = []
        for keyPath in keyPaths {
            guard let property = entity.byKeyPath[keyPath] else { return entity.properties.filter(\.travels).map(\.name) }
            if property.travels { names.append(property.name) }
        }
        return names
    }

    /// Takes stock of the local store without its history: on the first sync (models saved
    /// before the engine ran), or when history the engine had not read was deleted (reported as
    /// `localHistoryExpired`). Every model the server does not have becomes a pending insert,
    /// every mapped model that is gone a pending delete, and every property of a mapped model
    /// that differs from its baseline a pending update, so no change in the lost history is lost.
    private func scan(_ context: ModelContext, afterExpiry: Bool) throws {
        let latest = try latestLocalToken(context)
        var sequence = try state.nextSequence()
        for entity in schema.entities.values.sorted(by: { $0.name < $1.name }) {
            let present = try identifiers(of: entity, in: context)
            let servers = try state.servers(of: present)
            let pending = try state.pending(of: present)
            for identifier in present where servers[identifier] == nil && pending[identifier] == nil {
                try state.store(PendingChange(local: identifier, entity: entity.name, sequence: sequence, revision: 1,
                                              inserted: true, deleted: false, properties: [], server: nil))
                sequence += 1
            }
            try recordChangesSinceBaselines(present.filter { servers[$0] != nil && pending[$0]?.deleted != true },
                                            entity: entity, pending: pending, sequence: &sequence)
            let kept = Set(present)
            for (server, local) in try state.mapped(entity: entity.name) where !kept.contains(local) {
                var change = try state.pending(of: [local])[local]
                    ?? PendingChange(local: local, entity: entity.name, sequence: sequence, revision: 0, inserted: false, deleted: false, properties: [], server: nil)
                sequence += 1
                change.revision += 1
                change.deleted = true
                change.server = server
                try state.store(change)
            }
        }
        try state.set("scanned", true)
        try state.set("absorbed", latest)
        try state.save()
        if afterExpiry {
            warning = SyncError(.localHistoryExpired, "The local store deleted history the engine had not read (its history retention is shorter than the time the engine did not run, or the app deleted it); nothing was lost: the engine compared every synced model with what the server last had of it and pushed the differences, which reads the whole local store. Give the store a longer history retention when syncing.")
        }
    }

    /// Records as pending the properties of mapped models that differ from what the server holds
    /// of them: changes whose history is gone.
    private func recordChangesSinceBaselines(_ mapped: [PersistentIdentifier], entity: SyncEntity,
                                             pending: [PersistentIdentifier: PendingChange], sequence: inout Int) throws {
        for chunk in mapped.chunked(500) {
            // A context per chunk, so the models read do not pile up.
            let context = ModelContext(container)
            let models = try models(of: entity, chunk, in: context)
            let baselines = try state.baselines(of: chunk)
            for identifier in chunk {
                guard let model = models[identifier] else { continue }
                let changed = try state.changedSinceBaseline(model, entity: entity, baseline: baselines[identifier])
                guard !changed.isEmpty else { continue }
                var change = pending[identifier] ?? PendingChange(local: identifier, entity: entity.name, sequence: sequence, revision: 0,
                                                                  inserted: false, deleted: false, properties: [], server: nil)
                if pending[identifier] == nil { sequence += 1 }
                change.revision += 1
                change.properties.formUnion(changed)
                try state.store(change)
            }
        }
    }

    private func identifiers(of entity: SyncEntity, in context: ModelContext) throws -> [PersistentIdentifier] {
        func fetch<M: PersistentModel>(_: M.Type) throws -> [PersistentIdentifier] {
            try context.fetchIdentifiers(FetchDescriptor<M>())
        }
        return try fetch(entity.type).filter { $0.entityName == entity.name }
    }
}
