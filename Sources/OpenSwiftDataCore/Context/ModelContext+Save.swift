import Foundation

extension ModelContext {
    /// Posted before a save, with the context as its object and no user info.
    public static let willSave = Notification.Name("SwiftData.ModelContext.willSave")
    /// Posted after a successful save, with the context as its object. Its user info holds the
    /// identifiers of the inserted, updated and deleted models under the ``NotificationKey`` raw values.
    public static let didSave = Notification.Name("SwiftData.ModelContext.didSave")

    /// The keys of a save notification's user info.
    public enum NotificationKey: String {
        /// The query generation; not posted on Linux.
        case queryGeneration
        /// Whether every identifier was invalidated; not posted on Linux.
        case invalidatedAllIdentifiers
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save updated.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
        /// The history token of the store state after the save, in `didSave` only: the token
        /// (`any HistoryToken`, a ``DefaultHistoryToken`` for the library's stores) when one store
        /// recorded the save, as usual; a `[String: any HistoryToken]` by store identifier when
        /// several did. Absent when no store of the container keeps history.
        case historyTokens
    }

    /// Writes the pending changes, one store request per store. A store that throws leaves its
    /// models' changes pending (and the store as it was); changes already written to other stores
    /// stay written.
    public func save() throws {
        guard hasChanges else { return }
        checkPendingInverses()
        try applyRelationshipRules()
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)
        var insertedIDs: [PersistentIdentifier] = []
        var updatedIDs: [PersistentIdentifier] = []
        var deletedIDs: [PersistentIdentifier] = []
        var historyTokens: [String: any HistoryToken] = [:]
        for slot in container.stores {
            let toInsert = slot.own(inserted.storages)
            let toUpdate = slot.own(changed.storages)
            let toDelete = slot.own(deleted.storages)
            guard !(toInsert.isEmpty && toUpdate.isEmpty && toDelete.isEmpty) else { continue }
            let referring = slot.rewritesReferences ? [] : referringModels(toInsert + toUpdate, to: toInsert)
            let outcome = try slot.save(inserted: toInsert, updated: toUpdate, deleted: toDelete, editingState: editingState)
            commitInserts(toInsert, as: outcome.insertedIdentifiers, remapped: outcome.remapped)
            insertedIDs += outcome.insertedIdentifiers
            updatedIDs += toUpdate.map(commitUpdate)
            deletedIDs += toDelete.map(commitDelete)
            reregister(outcome.reregistered)
            if let token = outcome.historyToken { historyTokens[slot.store.identifier] = token }
            if outcome.remapped && !referring.isEmpty {
                try fixReferences(in: referring, slot: slot)
            }
        }
        var userInfo: [String: Any] = [
            NotificationKey.insertedIdentifiers.rawValue: insertedIDs,
            NotificationKey.updatedIdentifiers.rawValue: updatedIDs,
            NotificationKey.deletedIdentifiers.rawValue: deletedIDs,
        ]
        if historyTokens.count == 1, let token = historyTokens.first?.value {
            userInfo[NotificationKey.historyTokens.rawValue] = token
        } else if !historyTokens.isEmpty {
            userInfo[NotificationKey.historyTokens.rawValue] = historyTokens
        }
        NotificationCenter.default.post(name: ModelContext.didSave, object: self, userInfo: userInfo)
    }

    /// Runs the block, then saves. When the block throws, nothing is saved and its changes stay pending.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    /// The models of `storages` that refer to any of `targets` through a relationship. The set of
    /// targets is made once: made per model, a save of N inserts was quadratic.
    private func referringModels(_ storages: [BackingStorage], to targets: [BackingStorage]) -> [BackingStorage] {
        let wanted = Set(targets.map(ObjectIdentifier.init))
        return storages.filter { refersToAny(of: wanted, from: $0) }
    }

    /// Whether `storage` refers to any of `wanted` through a relationship.
    private func refersToAny(of wanted: Set<ObjectIdentifier>, from storage: BackingStorage) -> Bool {
        storage.info.properties.contains { property in
            property.isRelationship && storage.relatedModels(at: property.index).contains {
                $0.backingStorage.map { wanted.contains(ObjectIdentifier($0)) } ?? false
            }
        }
    }

    /// A store that copied inserted snapshots without `remappedIdentifiers` (the WWDC24 sample does)
    /// still holds the temporary identifiers of models inserted with them: saving those models
    /// again as updates, now that every identifier is permanent, leaves a graph the store can read
    /// back. When that second request fails, the models stay changed so the next save retries it.
    private func fixReferences(in storages: [BackingStorage], slot: StoreSlot) throws {
        do {
            _ = try slot.save(inserted: [], updated: storages, deleted: [], editingState: editingState)
        } catch {
            for storage in storages { if let model = storage.model { changed.add(model, storage: storage) } }
            throw error
        }
    }

    /// Registers the saved inserts under their permanent identifiers (`permanents`, in the order
    /// of `storages`). When they are a good part of the identity map, the map is rebuilt in one
    /// pass instead: removing a dictionary entry shifts the entries after it back, rehashing each.
    private func commitInserts(_ storages: [BackingStorage], as permanents: [PersistentIdentifier], remapped: Bool) {
        let rebuild = remapped && storages.count * 4 >= registry.count
        // When rebuilding: the models to register anew, in save order, so that of inserts that
        // became one model (a uniqueness constraint) the last one is registered, as one by one.
        var moved: [(PersistentIdentifier, any PersistentModel)] = []
        if rebuild { moved.reserveCapacity(storages.count) }
        // Every pending insert was saved (one store, the usual case): the set goes at once, before
        // the map is rebuilt, so that the two are not alive together at the save's peak.
        if storages.count == inserted.count { inserted.removeAll() }
        for (storage, permanent) in zip(storages, permanents) {
            let temporary = storage.persistentModelIdentifier
            if permanent != temporary {
                if rebuild {
                    // Registered (so in the map under `temporary`) and alive.
                    if storage.state == .registered, storage.context === self, let model = storage.model {
                        moved.append((permanent, model))
                        storage.setIdentifier(permanent)
                    }
                } else if let model = registry.removeValue(forKey: temporary) {
                    registry[permanent] = model
                    storage.setIdentifier(permanent)
                }
            }
            storage.markCommitted()
            inserted.remove(storage)
        }
        guard rebuild else { return }
        var rekeyed: IdentityMap
        // Each moved model was in the map under its own temporary identifier: when they are all
        // of it (a first save of new models), nothing else is kept, and the old map goes first,
        // before the new one grows.
        if moved.count == registry.count {
            registry = IdentityMap()
            rekeyed = IdentityMap()
            if let scope = moved.first?.0.scope { rekeyed.reserveCapacity(moved.count, in: scope) }
        } else {
            rekeyed = IdentityMap(reservingLike: registry)
            if let scope = moved.first?.0.scope { rekeyed.reserveCapacity(registry.count, in: scope) }
            // A moved model's entry is keyed by its temporary identifier, no longer its own.
            for (identifier, model) in registry where model.backingStorage.map({ $0.persistentModelIdentifier == identifier }) ?? true {
                rekeyed[identifier] = model
            }
        }
        // An insert that took a stored model's identifier (an upsert) replaces that model.
        for (identifier, model) in moved { rekeyed[identifier] = model }
        registry = rekeyed
    }

    private func commitUpdate(_ storage: BackingStorage) -> PersistentIdentifier {
        storage.markCommitted()
        changed.remove(storage)
        return storage.persistentModelIdentifier
    }

    private func commitDelete(_ storage: BackingStorage) -> PersistentIdentifier {
        let identifier = storage.persistentModelIdentifier
        registry.removeValue(forKey: identifier)
        relatedRows.removeValue(forKey: identifier)
        deleted.remove(storage)
        storage.context = nil
        storage.releaseRelationships()
        return identifier
    }

    /// Applies store-side values to registered models that have no pending change; never replaces
    /// the context's instances.
    private func reregister(_ rows: [StoreSlot.Row]) {
        for row in rows {
            guard let storage = registry[row.identifier]?.backingStorage, !hasPendingChange(storage) else { continue }
            storage.load(row.values)
        }
    }
}
