import Foundation

/// An executor that owns a model context.
public protocol ModelExecutor: Executor {
    /// The context the executor's jobs use.
    var modelContext: ModelContext { get }
}

/// A serial executor that owns a model context.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// Runs an actor's jobs one at a time on a private dispatch queue, and owns the actor's context.
public final class DefaultSerialModelExecutor: @unchecked Sendable, SerialModelExecutor {
    /// The context the actor's jobs use.
    public final let modelContext: ModelContext
    private let queue = DispatchQueue(label: "OpenSwiftData.DefaultSerialModelExecutor")

    /// Creates an executor that owns this context.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    /// Runs the job on the executor's queue, after the jobs before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// The executor, as the actor runtime refers to it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor with its own ``ModelContext``, isolated on a ``DefaultSerialModelExecutor``.
/// Write `@ModelActor actor Importer { … }` to get one.
public protocol ModelActor: Actor {
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor's jobs run on, which owns its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its ``modelExecutor``.
    nonisolated public var unownedExecutor: UnownedSerialExecutor {
        (modelExecutor as! any SerialModelExecutor).asUnownedSerialExecutor()
    }

    /// The actor's own context, from its executor.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with the identifier, as `T`, from this actor's context.
    public subscript<T>(id: PersistentIdentifier, as as: T.Type) -> T? where T: PersistentModel {
        modelContext.registeredModel(for: id) ?? (modelContext.model(for: id) as? T)
    }
}
