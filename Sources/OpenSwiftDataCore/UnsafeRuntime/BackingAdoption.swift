#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Darwin
#endif

/// Lets a model the context builds (`init(backingData:)`) start with the context's backing data,
/// and lets a `@Model` subclass's initializer hand the backing data it filled to its superclass's.
///
/// The `@Model` macro gives `_$backingData` a default value, `createBackingData()`, which Swift
/// evaluates in every initializer, `init(backingData:)` included; and the optional properties'
/// implicit `= nil` defaults are written into it through their init accessors. For a fetched model
/// that built and filled a second backing data only to drop it, on every row turned into a
/// model. While the context initializes a model, the backing data it made is offered
/// here, on the current thread, and `createBackingData()` takes it instead of allocating one.
///
/// A subclass's properties are initialized before `super.init`, so before the root class's
/// `_$backingData` exists: the subclass's own `_$backingData` stages one here, laid out for the
/// class being initialized (the most derived class's initializer runs first), and the root class's
/// `createBackingData()` takes it.
enum BackingAdoption {
    private static let key: pthread_key_t = makeKey()
    /// Staged backing data, retained: a subclass initializer that fails before `super.init` leaves
    /// its staged backing data here, where the next staging or taking finds it abandoned.
    private static let stagedKey: pthread_key_t = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for OpenSwiftData")
        return key
    }

    /// Runs `initialize` with `backing` on offer; whatever `initialize` did not take is withdrawn.
    /// Without shortcuts a root class's model is offered nothing: it makes a backing data of its
    /// own, which its `init(backingData:)` then replaces with `backing`. A subclass's is always
    /// offered, since its own `_$backingData` is staged from the offer before `init(backingData:)` runs.
    static func offering<M: PersistentModel>(_ backing: BackingStorage, _ initialize: () -> M) -> M {
        backing.isInitializing = true
        defer { backing.isInitializing = false }
        guard UnsafeRuntime.shortcutsEnabled || backing.info.isSubclass else { return initialize() }
        // Unretained: the caller holds `backing` for the whole call.
        pthread_setspecific(key, Unmanaged.passUnretained(backing).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return initialize()
    }

    /// The backing data on offer for a model of type `P` (or of a subclass, being initialized),
    /// taken (so a related model created by a property's default value does not get it too).
    static func take<P: PersistentModel>(for _: P.Type) -> ModelBackingData<P>? {
        if let raw = pthread_getspecific(key) {
            let offered = Unmanaged<BackingStorage>.fromOpaque(raw).takeUnretainedValue()
            guard offered.info.modelType == P.self || offered.info.modelType is P.Type else { return nil }
            pthread_setspecific(key, nil)
            return UnsafeRuntime.downcast(offered, to: ModelBackingData<P>.self)
        }
        // Staged by a subclass of `P` whose initializer is running (which holds the other reference).
        guard let staged = liveStaged(), staged.info.modelType is P.Type else { return nil }
        _ = takeStaged()
        return UnsafeRuntime.downcast(staged, to: ModelBackingData<P>.self)
    }

    /// The backing data a `@Model` subclass `M`'s initializer writes its properties into: the one
    /// on offer or staged for `M` or a subclass of it, or a new one staged for `M`.
    static func staged<M: PersistentModel>(for _: M.Type) -> any BackingData<M> {
        if let raw = pthread_getspecific(key) {
            let offered = Unmanaged<BackingStorage>.fromOpaque(raw).takeUnretainedValue()
            if offered.info.modelType is M.Type { return typed(offered, as: M.self) }
        }
        if let staged = liveStaged(), staged.info.modelType is M.Type { return typed(staged, as: M.self) }
        let backing = ModelTypeInfo.of(M.self).makeBacking(as: M.self)
        replaceStaged(with: backing)
        return typed(backing, as: M.self)
    }

    private static func takeStaged() -> BackingStorage? {
        guard let raw = pthread_getspecific(stagedKey) else { return nil }
        pthread_setspecific(stagedKey, nil)
        return Unmanaged<BackingStorage>.fromOpaque(raw).takeRetainedValue()
    }

    private static func replaceStaged(with backing: BackingStorage) {
        _ = takeStaged()
        pthread_setspecific(stagedKey, Unmanaged.passRetained(backing).toOpaque())
    }

    /// The staged backing data, unless the initializer that staged it is gone (then it is dropped).
    private static func liveStaged() -> BackingStorage? {
        guard var staged = takeStaged() else { return nil }
        guard !isKnownUniquelyReferenced(&staged) else { return nil }
        pthread_setspecific(stagedKey, Unmanaged.passRetained(staged).toOpaque())
        return staged
    }

    /// A hierarchy's backing data (a `ModelBackingData` of the root class) as the backing data of
    /// one of its classes. The model type is only a phantom of `ModelBackingData`: its layout is
    /// the same for every model type, and its methods read key paths as `AnyKeyPath`.
    static func typed<M: PersistentModel>(_ storage: BackingStorage, as _: M.Type) -> any BackingData<M> {
        // Through a raw pointer, not `unsafeDowncast`: that checks the dynamic type in debug
        // builds, and the object is a `ModelBackingData` of the root class, not of `M`.
        Unmanaged<ModelBackingData<M>>.fromOpaque(Unmanaged.passUnretained(storage).toOpaque()).takeUnretainedValue()
    }
}
