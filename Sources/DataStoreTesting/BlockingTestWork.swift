import Dispatch

/// Runs a test's blocking work (synchronous store calls, waiting on another process or server) on
/// a thread outside Swift's cooperative pool, in the same task, so `#expect` still reports to the
/// test that called it.
///
/// Swift Testing runs a synchronous test on the cooperative pool, which has one thread per core:
/// on a two-core machine, two long blocking tests take all of it, and every test that awaits (an
/// observer waiting for another client's save) stalls behind them. A long blocking test written as
/// `async` and wrapped in this leaves the pool to the others.
///
/// ```swift
/// @Test func tenThousandPredicatesAgree() async throws {
///     try await withBlockingWork { try runTheRounds() }
/// }
/// ```
public func withBlockingWork<T>(_ work: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try work() }
}

/// Jobs run one after another on a serial dispatch queue, whose thread is not one of the
/// cooperative pool's.
private final class BlockingWorkExecutor: TaskExecutor {
    static let shared = BlockingWorkExecutor()
    private let queue = DispatchQueue(label: "DataStoreTesting.blocking-work", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
