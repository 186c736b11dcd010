import Dispatch
import Foundation
import OpenSwiftData
import StoreWire

/// Runs the store's blocking calls on threads of their own, never on the server's event loops or
/// the cooperative pool, and answers at the time limit even when the call is still blocked in the
/// store (a store call cannot be cancelled). A save that finishes after its 503 still commits,
/// and a retry with its idempotency key gets its receipt. A call still queued when its request
/// was answered never starts, so a backlog left by a stalled store drains at once.
struct BlockingWork: Sendable {
    let limit: Duration
    /// The served schema: entity names in requests resolve to its model types, even while other
    /// versions' types of the same names are in use in the process (a migration, a second server).
    let schema: Schema
    private static let threads = WorkerThreads(name: "StoreServer.store", count: 8)
    /// Only fires timers; never runs a store call.
    private static let timers = DispatchQueue(label: "StoreServer.timeLimit")

    func run<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        let (limit, schema) = (limit, schema)
        return try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            Self.threads.submit {
                guard !once.isResumed else { return }
                once.resume(Result { try EntityRegistry.resolving(in: schema, call) })
            }
            let nanoseconds = Int(limit.wholeNanoseconds)
            Self.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                once.resume(.failure(StoreServerError(.timeout, "The request took longer than the server's limit of \(limit); try again (a save with the same Idempotency-Key is applied once), or ask for less at once.")))
            }
        }
    }
}

/// Resumes a continuation with the first result only.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = continuation
    }

    /// Whether a result went out already.
    var isResumed: Bool { lock.withLock { continuation == nil } }

    func resume(_ result: Result<T, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }
}
