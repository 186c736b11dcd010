import Foundation

/// An executor that owns a model context.
public protocol ModelExecutor: Executor {
    var modelContext: ModelContext { get }
}

/// A serial executor that owns a model context.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// Runs an actor's jobs one at a time on a private dispatch queue, and owns the actor's context.
public final class DefaultSerialModelExecutor: @unchecked Sendable, SerialModelExecutor {
    public final let modelContext: ModelContext
    private let queue = DispatchQueue(label: "OpenSwiftData.DefaultSerialModelExecutor")

    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor with its own ``ModelContext``, isolated on a ``DefaultSerialModelExecutor``.
/// Write `@ModelActor actor Importer { … }` to get one.
public protocol ModelActor: Actor {
    nonisolated var modelContainer: ModelContainer { get }
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    nonisolated public var unownedExecutor: UnownedSerialExecutor {
        (modelExecutor as! any SerialModelExecutor).asUnownedSerialExecutor()
    }

    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with the identifier, as `T`, from this actor's context.
    public subscript<T>(id: PersistentIdentifier, as as: T.Type) -> T? where T: PersistentModel {
        modelContext.registeredModel(for: id) ?? (modelContext.model(for: id) as? T)
    }
}
