import Foundation

extension ModelContext {
    /// Deletes every model of `T` matching the predicate (all of them when it is `nil`).
    ///
    /// A store that adopts ``DataStoreBatching`` deletes the rows at once, and the context drops its
    /// matching registered models. For any other store, or when the store asks for in-memory
    /// filtering, the matching models are fetched and marked for deletion at the next save.
    public func delete<T>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws
        where T: PersistentModel {
        let slot = try container.slot(forEntity: Schema.entityName(for: T.self))
        // Matched before the store deletes, while the registered models' values can still load.
        let registered = try registry.values.compactMap { $0 as? T }.filter { try predicate?.evaluate($0) ?? true }
        do {
            if try slot.batchDelete(predicate, includeSubclasses: includeSubclasses, editingState: editingState) {
                drop(registered)
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
    private func drop<T: PersistentModel>(_ models: [T]) {
        for model in models {
            guard let storage = model.backingStorage else { continue }
            inserted.remove(storage)
            changed.remove(storage)
            deleted.remove(storage)
            registry.removeValue(forKey: storage.persistentModelIdentifier)
            storage.state = .deleted
            storage.context = nil
        }
    }
}
