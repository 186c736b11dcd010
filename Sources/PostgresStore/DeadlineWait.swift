import Foundation
import NIOCore

/// Blocks the calling thread until a future completes, its connection closes, or a deadline
/// passes, whichever comes first.
///
/// `EventLoopFuture.wait()` has no deadline, and PostgresNIO never completes a query written to a
/// channel that closed just before: after a database crash such a wait would last forever.
final class DeadlineWait<Value: Sendable>: @unchecked Sendable {
    enum Outcome {
        case completed(Result<Value, any Error>)
        /// The connection closed before the future completed.
        case closed
        case timedOut
    }

    private let condition = NSCondition()
    private var outcome: Outcome?

    /// The first of `future`'s result, `closeFuture`'s completion and `deadline`.
    static func wait(for future: EventLoopFuture<Value>, orClose closeFuture: EventLoopFuture<Void>?, until deadline: Date) -> Outcome {
        let waiter = DeadlineWait<Value>()
        future.whenComplete { waiter.finish(.completed($0)) }
        // A query's own failure on close is more precise than the close itself, and its callback
        // runs first when both are ready; running the close's callback a turn later keeps it so.
        closeFuture?.whenComplete { _ in future.eventLoop.execute { waiter.finish(.closed) } }
        return waiter.wait(until: deadline)
    }

    private func finish(_ outcome: Outcome) {
        condition.lock()
        if self.outcome == nil {
            self.outcome = outcome
            condition.broadcast()
        }
        condition.unlock()
    }

    private func wait(until deadline: Date) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil {
            if !condition.wait(until: deadline) && outcome == nil { return .timedOut }
        }
        return outcome ?? .timedOut
    }
}
