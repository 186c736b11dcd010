#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Darwin
#endif

/// Lets a model the context builds (`init(backingData:)`) start with the context's backing data.
///
/// The `@Model` macro gives `_$backingData` a default value, `createBackingData()`, which Swift
/// evaluates in every initializer, `init(backingData:)` included; and the optional properties'
/// implicit `= nil` defaults are written into it through their init accessors. For a fetched model
/// that built and filled a second backing data only to drop it, on every row turned into a
/// model. While the context initializes a model, the backing data it made is offered
/// here, on the current thread, and `createBackingData()` takes it instead of allocating one.
enum BackingAdoption {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for OpenSwiftData")
        return key
    }()

    /// Runs `initialize` with `backing` on offer; whatever `initialize` did not take is withdrawn.
    static func offering<M: PersistentModel>(_ backing: ModelBackingData<M>, _ initialize: () -> M) -> M {
        // Unretained: the caller holds `backing` for the whole call.
        pthread_setspecific(key, Unmanaged.passUnretained(backing).toOpaque())
        backing.isInitializing = true
        defer {
            pthread_setspecific(key, nil)
            backing.isInitializing = false
        }
        return initialize()
    }

    /// The backing data on offer for a model of type `P`, taken (so a related model created by a
    /// property's default value does not get it too).
    static func take<P: PersistentModel>(for _: P.Type) -> ModelBackingData<P>? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let offered = Unmanaged<BackingStorage>.fromOpaque(raw).takeUnretainedValue()
        guard offered.info.modelType == P.self else { return nil }
        pthread_setspecific(key, nil)
        return unsafeDowncast(offered, to: ModelBackingData<P>.self)
    }
}
