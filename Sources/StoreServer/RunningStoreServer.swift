import Dispatch
import Foundation
import StoreWire

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
        let application = application { port in signal.finish(.success(port)) }
        let task = Task(executorPreference: ServerExecutor.shared) {
            do {
                try await application.run()
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
        return RunningStoreServer(scheme: configuration.tls == nil ? "http" : "https", host: configuration.host, port: port, task: task)
    }
}

/// A server started with ``StoreServer/start(timeout:)``.
public final class RunningStoreServer: Sendable {
    /// The port the server listens on: the one it bound when the configuration asked for 0.
    public let port: Int
    /// `http://host:port`, or `https://host:port` when the server serves TLS: the URL clients use.
    public let url: URL
    private let task: Task<Void, any Error>

    init(scheme: String, host: String, port: Int, task: Task<Void, any Error>) {
        self.port = port
        url = URL(string: "\(scheme)://\(host):\(port)")!
        self.task = task
    }

    /// Stops the server: closes its connections, cancelling requests under way (a save already
    /// handed to the store still commits, and a client's retry with its idempotency key gets its
    /// receipt), and returns when it has stopped. Safe to call from any thread or task: the server
    /// does not need the caller's.
    public func stop() {
        task.cancel()
        let stopped = DispatchSemaphore(value: 0)
        Task(executorPreference: ServerExecutor.shared) { [task] in
            _ = await task.result
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
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.wholeNanoseconds))
        guard semaphore.wait(timeout: deadline) == .success else { return nil }
        return lock.withLock { result }
    }
}
