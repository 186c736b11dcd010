extension ModelContext {
    /// Registers a model (and the not-yet-inserted models it refers to). It keeps a temporary
    /// identifier until its first save. Inserting a model that belongs to another context does nothing.
    public func insert<T>(_ model: T) where T: PersistentModel {
        guard let storage = model.backingStorage else { return }
        if storage.context === self {
            if storage.state == .deleted, deleted.contains(storage) {
                deleted.remove(storage)
                storage.state = .registered
            }
            return
        }
        guard storage.context == nil, storage.state != .deleted else { return }
        storage.model = model
        storage.context = self
        storage.state = .registered
        registry[storage.persistentModelIdentifier] = model
        inserted.add(model, storage: storage)
        insertRelatedModels(of: storage)
        storage.linkInverses()
        scheduleAutosave()
    }

    /// Marks a model for deletion at the next save; a model inserted since the last save is simply
    /// dropped. Its delete rules apply at once, as SwiftData applies them when it processes pending
    /// changes: `.cascade` targets are deleted too, the models that survive let go of the deleted
    /// ones (`.nullify`), and a fetch in this context no longer sees any of them. `.deny` is checked
    /// by the save.
    public func delete<T>(_ model: T) where T: PersistentModel {
        guard let storage = model.backingStorage, storage.context === self, storage.state != .deleted else { return }
        if storage.info.relationshipSlots.isEmpty {
            markDeleted(model, storage: storage)
        } else {
            deleteApplyingRules(model)
        }
        scheduleAutosave()
    }

    /// Moves a model to the pending deletes, or drops it when it was inserted since the last save.
    func markDeleted(_ model: any PersistentModel, storage: BackingStorage) {
        storage.state = .deleted
        if inserted.contains(storage) {
            inserted.remove(storage)
            changed.remove(storage)
            registry.removeValue(forKey: storage.persistentModelIdentifier)
            storage.context = nil
            return
        }
        changed.remove(storage)
        deleted.add(model, storage: storage)
    }

    /// Discards pending inserts and deletes and restores changed models to their last saved values.
    public func rollback() {
        for storage in inserted.storages {
            registry.removeValue(forKey: storage.persistentModelIdentifier)
            storage.context = nil
            storage.state = .detached
        }
        awaitingInverseCheck = []
        for storage in changed.storages { storage.restoreCommitted() }
        for storage in deleted.storages {
            storage.restoreCommitted()
            storage.state = .registered
        }
        inserted.removeAll()
        changed.removeAll()
        deleted.removeAll()
    }

    /// Called by a backing data whose to-many gained `added` in place (inverse upkeep): the
    /// bookkeeping of ``backingDidChange(_:slot:)``, looking only at the model added.
    func backingDidGain(_ storage: BackingStorage, _ added: any PersistentModel) {
        guard storage.state == .registered, let model = storage.model else { return }
        if !inserted.contains(storage) { changed.add(model, storage: storage) }
        if added.backingStorage?.context == nil { insert(added) }
        scheduleAutosave()
    }

    /// Called by a backing data when the value in `slot` changed. `insertingRelated`: whether the
    /// slot may hold models new to the context (an in-place append inserts its own).
    func backingDidChange(_ storage: BackingStorage, slot: Int, insertingRelated: Bool = true) {
        guard storage.state == .registered, let model = storage.model else { return }
        // A model inserted since the last save stays an insert, but models assigned to its
        // relationships are inserted too, as SwiftData does.
        if !inserted.contains(storage) { changed.add(model, storage: storage) }
        // Only the changed slot can hold models new to the context: the others were looked at when
        // they changed or when the model was inserted. Scanning them all made every inverse
        // append cost as much as the to-many it appended to. An attribute holds none.
        if insertingRelated, storage.info.relationshipSlots.contains(slot) { insertRelatedModels(of: storage, slots: [slot]) }
        scheduleAutosave()
    }

    /// Remembers a backing data whose to-many was modified in place, so that the next save
    /// compares it in full first (``BackingStorage/checkInverses()``).
    func awaitInverseCheck(_ storage: BackingStorage) {
        awaitingInverseCheck.append(storage)
    }

    /// Compares the to-manys modified in place since the last check with their lists before.
    func checkPendingInverses() {
        guard !awaitingInverseCheck.isEmpty else { return }
        let storages = awaitingInverseCheck
        awaitingInverseCheck = []
        // Only models still registered here: a deleted one has nothing to link, and one dropped
        // since (an insert deleted before any save) may be gone, its storage with it.
        for storage in storages where storage.state == .registered && storage.context === self { storage.checkInverses() }
    }

    /// Inserting a graph root inserts the new models it refers to, as SwiftData does.
    func insertRelatedModels(of storage: BackingStorage, slots: [Int]? = nil) {
        for slot in slots ?? storage.info.relationshipSlots {
            guard let stored = storage.values[slot] else { continue }
            if let rule = storage.info.relationshipRule(at: slot), rule.forEachModel(in: stored, { model in
                if model.backingStorage?.context == nil { insert(model) }
            }) != nil {
                continue
            }
            let property = storage.info.properties[slot]
            guard property.isRelationship else { continue }
            guard let value = storage.values[property.index].flatMap(unwrapOptional),
                  let related = relationshipModels(in: value, shape: property.shape) else { continue }
            for model in related where model.backingStorage?.context == nil {
                insert(model)
            }
        }
    }
}
