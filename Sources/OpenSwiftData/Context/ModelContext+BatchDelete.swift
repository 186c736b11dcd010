import Foundation

extension ModelContext {
    /// Deletes every model of `T` matching the predicate (all of them when it is `nil`).
    ///
    /// A store that adopts ``DataStoreBatching`` deletes the rows at once, and the context drops its
    /// matching registered models. For any other store, or when the store asks for in-memory
    /// filtering, the matching models are fetched and marked for deletion at the next save.
    ///
    /// The delete rules apply as they would to each model deleted by itself: `.cascade` targets go
    /// too, the models that survive let go of the deleted ones, and a `.deny` relationship that
    /// still refers to a surviving model makes the call throw ``PersistenceError/Code/deleteDenied``
    /// before anything is deleted.
    public func delete<T>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws
        where T: PersistentModel {
        let entityName = Schema.entityName(for: T.self)
        let slot = try container.slot(forEntity: entityName)
        // Cascades and denials need the models; nullified references the store clears itself
        // (and the context below).
        if ModelTypeInfo.of(T.self).relationshipRules.values.contains(where: { $0.deleteRule == .cascade || $0.deleteRule == .deny }) {
            try deleteFollowingRules(T.self, where: predicate, slot: slot)
            return
        }
        // Matched before the store deletes, while the registered models' values can still load.
        // A loop, not `compactMap`/`filter`, which run unspecialized here (900 instructions a
        // model), collecting storages, not an `[T]`, whose every append looks up the array's
        // metadata in this generic code.
        var registered: [BackingStorage] = []
        // Without a predicate, every model of the tables holding `T`s (its entity's, its
        // subclasses') goes, and no `T` is formed: the type is compared once per table.
        let wholeTables = predicate == nil ? registry.scopes { type(of: $0) == T.self || $0 is T } : []
        if let predicate {
            let exactly = Self.exactly(T.self)
            for (_, model) in registry {
                guard let typed = exactly(model), try predicate.evaluate(typed), let storage = model.backingStorage else { continue }
                registered.append(storage)
            }
        } else {
            for model in registry.models(inScopes: wholeTables) {
                if let storage = model.backingStorage { registered.append(storage) }
            }
        }
        do {
            if try slot.batchDelete(predicate, includeSubclasses: includeSubclasses, editingState: editingState) {
                drop(registered, all: registered.count == registry.count, wholeTables: wholeTables)
                return
            }
        } catch DataStoreError.preferInMemoryFilter {
            // Falls through to the in-memory path below.
        }
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        for model in try fetch(descriptor) { delete(model) }
    }

    /// After a store-side batch delete, the context's copies of the deleted models are gone too.
    /// `all`: they are every model the context holds, so the identity map is emptied at once;
    /// `wholeTables`: they are every model of these tables, which go whole.
    private func drop(_ storages: [BackingStorage], all: Bool, wholeTables: [ObjectIdentifier]) {
        for storage in storages { storage.state = .deleted }
        // While the identity map still holds the deleted models (storages do not keep them alive).
        if !all { unlinkSurvivors(of: storages) }
        if all {
            // Every pending model is a registered one, so all of them go too: the sets are emptied
            // at once rather than by three removals a model (a third of deleting one).
            registry = IdentityMap()
            inserted.removeAll()
            changed.removeAll()
            deleted.removeAll()
        } else {
            // After a save nothing is pending: three removals a model were a third of dropping it.
            let pending = hasChanges
            let byTable = !wholeTables.isEmpty
            for storage in storages {
                if pending {
                    inserted.remove(storage)
                    changed.remove(storage)
                    deleted.remove(storage)
                }
                if !byTable { registry.removeValue(forKey: storage.persistentModelIdentifier) }
            }
            if byTable { registry.removeScopes(wholeTables) }
        }
        for storage in storages {
            storage.context = nil
            storage.releaseRelationships()
        }
    }

    /// The registered models a batch delete left let go of the deleted ones they refer to through
    /// an inverse, as a delete with `.nullify` would. Only models this context holds are looked
    /// at: the store cleared the references of the others.
    private func unlinkSurvivors(of storages: [BackingStorage]) {
        for storage in storages where !storage.isFault {
            guard let me = storage.model else { continue }
            for (slot, rule) in storage.info.relationshipRules {
                guard let inverse = rule.inverse, let stored = storage.values[slot] else { continue }
                let related = rule.models(in: stored)
                    ?? BackingStorage.UnresolvedRelationship.of(stored)?.identifiers?.compactMap { registry[$0] } ?? []
                for model in related {
                    guard let survivor = model.backingStorage, survivor.state != .deleted, survivor.context === self else { continue }
                    survivor.unlink(me, at: inverse.slot)
                }
            }
        }
    }

    /// The model as a `T`: by comparing types when it is exactly one (a dynamic cast per model was
    /// a tenth of deleting them), else by casting (subclasses).
    private static func exactly<T: PersistentModel>(_: T.Type) -> (any PersistentModel) -> T? {
        { model in type(of: model) == T.self ? unsafeDowncast(model as AnyObject, to: T.self) : model as? T }
    }
}
