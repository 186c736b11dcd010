import Foundation

/// A request's body, handed once to the work that decodes it: that work runs in a closure the
/// server keeps until the store has written, and a body the closure captured directly would stay
/// in memory, beside its decoded copy, for the whole write.
final class RequestBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    init(_ data: Data) {
        self.data = data
    }

    /// The body, leaving nothing behind; empty after the first call.
    func take() -> Data {
        lock.withLock {
            defer { data = nil }
            return data ?? Data()
        }
    }
}
