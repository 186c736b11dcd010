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
        let subclasses = includeSubclasses && hasInheritance ? subclassTypes(of: T.self) : []
        // Each subclass's models are deleted as that class below, under its own delete rules, so
        // the store is asked for `T`'s alone.
        try deleteInBatch(model, where: predicate, includeSubclasses: includeSubclasses && subclasses.isEmpty)
        if !subclasses.isEmpty {
            for subclass in subclasses {
                func delete<S: PersistentModel>(_: S.Type) throws {
                    try deleteInBatch(S.self, where: predicate.map { inheritedPredicate($0, as: S.self) }, includeSubclasses: false)
                }
                try delete(subclass)
            }
        }
        NotificationCenter.default.post(name: ModelContext.didBatchDelete, object: self)
    }

    /// Posted after ``delete(model:where:includeSubclasses:)`` returns, which posts no `didSave`:
    /// the ``ResultsObserver``s of the container fetch again.
    package static let didBatchDelete = Notification.Name("OpenSwiftData.ModelContext.didBatchDelete")

    private func deleteInBatch<T>(_ model: T.Type, where predicate: Predicate<T>?, includeSubclasses: Bool) throws
        where T: PersistentModel {
        let entityName = Schema.entityName(for: T.self)
        let slot = try container.slot(forEntity: entityName)
        // Cascades and denials need the models, unless no model exists for them to act on;
        // nullified references the store clears itself (and the context below).
        if try hasModelsForCascadeOrDeny(T.self) {
            try deleteFollowingRules(T.self, where: predicate, slot: slot)
            return
        }
        // Matched before the store deletes, while the registered models' values can still load.
        // A loop, not `compactMap`/`filter`, which run unspecialized here, collecting storages,
        // not an `[T]`, whose every append looks up the array's metadata in this generic code.
        var registered: [BackingStorage] = []
        // Without a predicate, every model of the tables holding `T`s (its entity's, its
        // subclasses') goes, and no `T` is formed: the type is compared once per table.
        let wholeTables = predicate == nil ? registry.scopes { type(of: $0) == T.self } : []
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
        if predicate != nil { readInverseReferences(of: registered) }
        if try batchDeleteInStore(predicate, includeSubclasses: includeSubclasses, slot: slot) {
            // Relationships to `T` may hold its subclasses' models, which stay unless deleted too.
            let everyModel = predicate == nil && (!hasInheritance || subclassTypes(of: T.self).isEmpty)
            drop(registered, all: registered.count == registry.count, wholeTables: wholeTables,
                 everyModelOf: everyModel ? T.self : nil)
            return
        }
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        for model in try fetchExactly(descriptor) { delete(model) }
    }

    /// Whether the store deleted the matching models itself. A batching store that sends the
    /// predicate back (`preferInMemoryFilter`) is asked again with the identifiers of the stored
    /// models the context finds matching, so the delete still happens in the store, at once.
    private func batchDeleteInStore<T: PersistentModel>(_ predicate: Predicate<T>?, includeSubclasses: Bool, slot: StoreSlot) throws -> Bool {
        do {
            return try slot.batchDelete(predicate, includeSubclasses: includeSubclasses, editingState: editingState)
        } catch DataStoreError.preferInMemoryFilter where predicate != nil {
            var stored = FetchDescriptor<T>(predicate: predicate)
            stored.includePendingChanges = false
            let identifiers = try fetchIdentifiers(stored)
            guard !identifiers.isEmpty else { return true }
            do {
                return try slot.batchDelete(#Predicate<T> { identifiers.contains($0.persistentModelID) },
                                            includeSubclasses: includeSubclasses, editingState: editingState)
            } catch DataStoreError.preferInMemoryFilter {
                return false
            }
        } catch DataStoreError.preferInMemoryFilter {
            return false
        }
    }

    /// After a store-side batch delete, the context's copies of the deleted models are gone too.
    /// `all`: they are every model the context holds, so the identity map is emptied at once;
    /// `wholeTables`: they are every model of these tables, which go whole; `everyModelOf`: every
    /// model of this type went, so the survivors' relationships to it are simply emptied.
    func drop(_ storages: [BackingStorage], all: Bool, wholeTables: [ObjectIdentifier],
              everyModelOf type: (any PersistentModel.Type)? = nil) {
        for storage in storages { storage.state = .deleted }
        // While the identity map still holds the deleted models (storages do not keep them alive).
        if !all, type == nil { unlinkSurvivors(of: storages) }
        if all {
            // Every pending model is a registered one, so all of them go too: the sets are emptied
            // at once rather than by three removals a model.
            registry = IdentityMap()
            inserted.removeAll()
            changed.removeAll()
            deleted.removeAll()
        } else {
            // After a save nothing is pending, so the three removals a model are skipped.
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
            if let type { forgetEveryModel(of: type) }
        }
        for storage in storages {
            storage.context = nil
            storage.releaseRelationships()
        }
    }

    /// Reads the to-many relationships with an inverse that `storages` left to be read, while the
    /// store still holds them: after it deletes the models, a relationship read from it would
    /// name none of the survivors that must let go of them.
    func readInverseReferences(of storages: [BackingStorage]) {
        for storage in storages where !storage.isFault {
            for slot in storage.info.relationshipSlots where storage.info.relationshipRule(at: slot)?.inverse != nil {
                guard let unresolved = BackingStorage.UnresolvedRelationship.of(storage.values[slot]) else { continue }
                _ = unresolved.identifiers
            }
        }
    }

    /// The registered models a batch delete left let go of the deleted ones they refer to through
    /// an inverse, as the store did: no change to save. Only models this context holds are
    /// looked at, and each survivor's list is rewritten once, however many of its models went.
    private func unlinkSurvivors(of storages: [BackingStorage]) {
        var gone = Set<ObjectIdentifier>()
        gone.reserveCapacity(storages.count)
        var touched: [(storage: BackingStorage, slot: Int)] = []
        var seen = Set<SurvivorSlot>()
        // Consecutive deleted models mostly share their survivor (a student's five grades).
        var last: SurvivorSlot?
        for storage in storages where !storage.isFault {
            guard let model = storage.model else { continue }
            gone.insert(ObjectIdentifier(model))
            for slot in storage.info.relationshipSlots {
                guard let rule = storage.info.relationshipRule(at: slot), let inverse = rule.inverse,
                      let stored = storage.values[slot] else { continue }
                let visit = { (related: any PersistentModel) in
                    guard let survivor = related.backingStorage, survivor.state != .deleted, survivor.context === self else { return }
                    let key = SurvivorSlot(storage: ObjectIdentifier(survivor), slot: inverse.slot)
                    guard key != last else { return }
                    last = key
                    if seen.insert(key).inserted { touched.append((survivor, inverse.slot)) }
                }
                if rule.forEachModel(in: stored, visit) == nil {
                    for identifier in BackingStorage.UnresolvedRelationship.of(stored)?.identifiers ?? [] {
                        if let related = registry[identifier] { visit(related) }
                    }
                }
            }
        }
        for (survivor, slot) in touched { survivor.forgetDeleted(gone, at: slot) }
    }

    /// Every model of `type` is gone from the store: the registered models' relationships to that
    /// type are emptied, as the store emptied them (no change to save).
    private func forgetEveryModel(of type: any PersistentModel.Type) {
        let gone = ObjectIdentifier(type)
        var pointing: [ObjectIdentifier: [Int]] = [:]
        for (_, model) in registry {
            guard let storage = model.backingStorage, !storage.isFault, storage.state != .deleted else { continue }
            let key = ObjectIdentifier(storage.info)
            let slots = pointing[key] ?? {
                let slots = storage.info.relationshipSlots.filter { slot in
                    storage.info.relationshipRule(at: slot).map { ObjectIdentifier($0.destination) == gone } ?? false
                }
                pointing[key] = slots
                return slots
            }()
            for slot in slots { storage.forgetEveryModel(at: slot) }
        }
    }

    /// The model as a `T` when it is exactly one, by comparing types rather than casting each
    /// model; a subclass's models are deleted by that subclass's own pass.
    private static func exactly<T: PersistentModel>(_: T.Type) -> (any PersistentModel) -> T? {
        { model in type(of: model) == T.self ? UnsafeRuntime.downcast(model as AnyObject, to: T.self) : nil }
    }
}

/// A relationship slot of a model that survives a batch delete.
private struct SurvivorSlot: Hashable {
    let storage: ObjectIdentifier
    let slot: Int
}
