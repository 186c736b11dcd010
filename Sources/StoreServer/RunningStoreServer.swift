import Dispatch
import Foundation
import ServiceLifecycle

extension StoreServer {
    /// Starts the server on threads of its own and returns once it listens: for apps that embed
    /// a server, and for tests (start on port 0, read ``RunningStoreServer/port``).
    ///
    /// ```swift
    /// let running = try server.start()
    /// let remote = RemoteStoreConfiguration(url: running.url, token: "s3cret")
    /// …
    /// running.stop()
    /// ```
    public func start(timeout: Duration = .seconds(30)) throws -> RunningStoreServer {
        let signal = StartSignal()
        let group = ServiceGroup(services: [application { port in signal.finish(.success(port)) }], logger: logger)
        let task = Task(executorPreference: ServerExecutor.shared) {
            do {
                try await group.run()
                signal.finish(.failure(StoreServerError(.storeFailure, "The server stopped before it listened.")))
            } catch {
                signal.finish(.failure(error))
                throw error
            }
        }
        guard let result = signal.wait(timeout: timeout) else {
            task.cancel()
            throw StoreServerError(.timeout, "The server did not start listening on \(configuration.host):\(configuration.port) within \(timeout).")
        }
        let port = try result.get()
        return RunningStoreServer(host: configuration.host, port: port, group: group, task: task)
    }
}

/// A server started with ``StoreServer/start(timeout:)``.
public final class RunningStoreServer: Sendable {
    public let port: Int
    /// `http://host:port`, the URL clients use.
    public let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(host: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        url = URL(string: "http://\(host):\(port)")!
        self.group = group
        self.task = task
    }

    /// Stops accepting connections, lets the requests under way finish, and returns when the
    /// server has stopped; connections still open after `gracePeriod` (idle keep-alive ones of
    /// clients that never closed them) are cut. Safe to call from any thread or task: the server
    /// does not need the caller's.
    public func stop(gracePeriod: Duration = .seconds(5)) {
        let stopped = DispatchSemaphore(value: 0)
        Task(executorPreference: ServerExecutor.shared) { [group, task] in
            await group.triggerGracefulShutdown()
            let deadline = Task(executorPreference: ServerExecutor.shared) {
                try await Task.sleep(for: gracePeriod)
                task.cancel()
            }
            _ = await task.result
            deadline.cancel()
            stopped.signal()
        }
        stopped.wait()
    }
}

/// The first outcome of a start: the port, or why it failed.
private final class StartSignal: @unchecked Sendable {
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var result: Result<Int, any Error>?

    func finish(_ outcome: Result<Int, any Error>) {
        let first = lock.withLock { () -> Bool in
            guard result == nil else { return false }
            result = outcome
            return true
        }
        if first { semaphore.signal() }
    }

    func wait(timeout: Duration) -> Result<Int, any Error>? {
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard semaphore.wait(timeout: deadline) == .success else { return nil }
        return lock.withLock { result }
    }
}
