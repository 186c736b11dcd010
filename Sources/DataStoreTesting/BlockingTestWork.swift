import Foundation

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

/// Runs `work` outside Swift's cooperative pool too, for awaiting code with a deadline: an HTTP
/// request whose client gives up after 30 seconds must not wait that long for a pool thread that
/// blocking tests hold, between its answer's arrival and the reading of its body.
///
/// ```swift
/// let reply = try await withBlockingWork { try await client.execute(request, timeout: .seconds(30)) }
/// ```
public func withBlockingWork<T>(_ work: () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try await work() }
}

/// Each job runs on a thread of its own. Not a dispatch queue: a concurrent queue's threads are
/// as few as the cores, so three long blocking tests held them all, and on Linux the cooperative
/// pool stalled with them (a whole parallel run reported nothing for two minutes).
private final class BlockingWorkExecutor: TaskExecutor {
    static let shared = BlockingWorkExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
