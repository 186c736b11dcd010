import Foundation

extension ModelContext {
    /// A batch delete of an entity that takes part in relationships: the matching models are
    /// loaded with their `.cascade` targets, so that the rules apply exactly as deleting each
    /// model would. A store that adopts ``DataStoreBatching`` deletes them at once, by identifier,
    /// entity by entity; any other store gets them as pending deletes.
    func deleteFollowingRules<T: PersistentModel>(_: T.Type, where predicate: Predicate<T>?, slot: StoreSlot) throws {
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        let matching: [any PersistentModel] = try fetch(descriptor)
        let doomed = cascadeClosure(of: matching)
        let doomedSet = Set(doomed.compactMap { $0.backingStorage.map(ObjectIdentifier.init) })
        try refuseDeniedDeletes(of: doomed) { model in
            !doomedSet.contains(model.backingStorage.map(ObjectIdentifier.init) ?? ObjectIdentifier(model))
        }
        let stored = doomed.filter { $0.backingStorage.map { !inserted.contains($0) } ?? false }
        guard try deleteInStore(stored, slot: slot) else {
            for model in matching { delete(model) }
            return
        }
        // The store deleted the saved ones: survivors let go of them here as a delete would, and
        // the context drops them like the store-side batch delete of an unrelated entity.
        for model in doomed { deleteApplyingRules(model) }
        for model in stored {
            guard let storage = model.backingStorage else { continue }
            deleted.remove(storage)
            registry.removeValue(forKey: storage.persistentModelIdentifier)
            relatedRows.removeValue(forKey: storage.persistentModelIdentifier)
            storage.context = nil
            storage.releaseRelationships()
        }
    }

    /// Deletes saved models in the store by identifier, one batch request per entity; `false`
    /// (nothing deleted) when the store does not adopt ``DataStoreBatching``.
    private func deleteInStore(_ models: [any PersistentModel], slot: StoreSlot) throws -> Bool {
        guard slot.store is any DataStoreBatching else { return false }
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
        return true
    }
}
