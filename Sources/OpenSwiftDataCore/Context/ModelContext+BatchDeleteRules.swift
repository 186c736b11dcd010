import Foundation

extension ModelContext {
    /// A batch delete of an entity with `.cascade` or `.deny` relationships: the matching models
    /// are loaded with their `.cascade` targets, so that the rules apply exactly as deleting each
    /// model would. A store that adopts ``DataStoreBatching`` deletes them at once, by identifier,
    /// entity by entity; any other store gets them as pending deletes.
    func deleteFollowingRules<T: PersistentModel>(_: T.Type, where predicate: Predicate<T>?, slot: StoreSlot) throws {
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        let matching: [any PersistentModel] = try fetchExactly(descriptor)
        let doomed = cascadeClosure(of: matching)
        let doomedSet = Set(doomed.compactMap { $0.backingStorage.map(ObjectIdentifier.init) })
        try refuseDeniedDeletes(of: doomed) { model in
            !doomedSet.contains(model.backingStorage.map(ObjectIdentifier.init) ?? ObjectIdentifier(model))
        }
        guard slot.store is any DataStoreBatching else {
            for model in matching { delete(model) }
            return
        }
        let stored = doomed.filter { $0.backingStorage.map { !inserted.contains($0) } ?? false }
        readInverseReferences(of: doomed.compactMap(\.backingStorage))
        try deleteInStore(stored)
        // The store deleted the saved ones; the context drops them all as after any batch delete.
        drop(doomed.compactMap(\.backingStorage), all: false, wholeTables: [])
    }

    /// Whether a `.cascade` or `.deny` relationship of `T` could act on any model: its
    /// destination entity holds one (saved or inserted). Deleting every student after every
    /// grade then takes the store's own batch delete, without loading the students.
    func hasModelsForCascadeOrDeny<T: PersistentModel>(_: T.Type) throws -> Bool {
        for rule in ModelTypeInfo.of(T.self).relationshipRules.values where rule.deleteRule == .cascade || rule.deleteRule == .deny {
            func count<M: PersistentModel>(_: M.Type) throws -> Int { try fetchCount(FetchDescriptor<M>()) }
            if try count(rule.destination) > 0 { return true }
        }
        return false
    }

    /// Deletes saved models in the store by identifier, one batch request per entity.
    private func deleteInStore(_ models: [any PersistentModel]) throws {
        var byEntity: [String: (type: any PersistentModel.Type, identifiers: Set<PersistentIdentifier>)] = [:]
        for model in models {
            let identifier = model.persistentModelID
            byEntity[identifier.entityName, default: (type(of: model), [])].identifiers.insert(identifier)
        }
        for (entityName, batch) in byEntity.sorted(by: { $0.key < $1.key }) {
            let entitySlot = try container.slot(forEntity: entityName)
            func delete<M: PersistentModel>(_: M.Type) throws {
                let identifiers = batch.identifiers
                _ = try entitySlot.batchDelete(#Predicate<M> { identifiers.contains($0.persistentModelID) },
                                               includeSubclasses: false, editingState: editingState)
            }
            try delete(batch.type)
        }
    }
}
