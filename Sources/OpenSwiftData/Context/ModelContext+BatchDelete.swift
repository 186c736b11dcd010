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
        // A loop: `compactMap` runs unspecialized here, 900 instructions a model.
        var ofType: [T] = []
        let exactly = Self.exactly(T.self)
        for model in registry.values {
            if let model = exactly(model) { ofType.append(model) }
        }
        let registered = try predicate.map { predicate in try ofType.filter { try predicate.evaluate($0) } } ?? ofType
        do {
            if try slot.batchDelete(predicate, includeSubclasses: includeSubclasses, editingState: editingState) {
                drop(registered, all: registered.count == registry.count)
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
    /// `all`: they are every model the context holds, so the identity map is emptied at once.
    private func drop<T: PersistentModel>(_ models: [T], all: Bool) {
        if all { registry = [:] }
        for model in models {
            guard let storage = model.backingStorage else { continue }
            inserted.remove(storage)
            changed.remove(storage)
            deleted.remove(storage)
            if !all { registry.removeValue(forKey: storage.persistentModelIdentifier) }
            storage.state = .deleted
            storage.context = nil
        }
    }

    /// The model as a `T`: by comparing types when it is exactly one (a dynamic cast per model was
    /// a tenth of deleting them), else by casting (subclasses).
    private static func exactly<T: PersistentModel>(_: T.Type) -> (any PersistentModel) -> T? {
        { model in type(of: model) == T.self ? unsafeDowncast(model as AnyObject, to: T.self) : model as? T }
    }
}
