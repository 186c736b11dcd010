/// An error that can say its store is unavailable for now: the service behind it (a database
/// server, a remote server) could not be reached or did not answer in time, so the same call may
/// succeed later. `StoreServer` answers such an error with 503 and `Retry-After`, which
/// `RemoteStore` clients retry, a save with the idempotency key it already sent.
///
/// ```swift
/// extension MyStoreError: TransientStoreError {
///     var isTransient: Bool { code == .connectionLost || code == .timedOut }
/// }
/// ```
public protocol TransientStoreError: Error {
    /// Whether the failure is the store's service being unavailable rather than the request's
    /// own fault, so that retrying the same call later may succeed.
    var isTransient: Bool { get }
}
