extension PersistentModel {
    /// The library's storage behind the model, when its backing data is one (``ModelBackingData``).
    /// Opened and checked on the metatype, which walks the superclass chain: `as? BackingStorage` on
    /// the existential is a dynamic cast (boxing it into an `Any` first barely helps), and
    /// deleting, saving and relationship upkeep ask once per model.
    package var backingStorage: BackingStorage? {
        func storage<Data: BackingData>(_ data: Data) -> BackingStorage? {
            guard Data.self is BackingStorage.Type else { return nil }
            guard UnsafeRuntime.shortcutsEnabled else { return data as? BackingStorage }
            // Data is BackingStorage (checked above); the object reference is reinterpreted, not copied.
            return unsafeDowncast(unsafeBitCast(data, to: AnyObject.self), to: BackingStorage.self)
        }
        return storage(persistentBackingData)
    }
}
