import Foundation

/// What a store answered for a save made with an idempotency key.
public struct SaveReceipt: Sendable, Equatable {
    /// The response recorded when the save was applied.
    public let response: Data
    /// Whether this save had been applied before, so nothing was applied now.
    public let isReplay: Bool

    /// Creates a receipt of the recorded response, saying whether the save was a replay.
    public init(response: Data, isReplay: Bool) {
        self.response = response
        self.isReplay = isReplay
    }
}

/// A store that can apply a save exactly once per key: it records the save's response under the
/// key in the same transaction as the save, so a client that lost the response and retries gets
/// the first response back instead of a second copy of its models, even across a restart.
public protocol SaveReceiptRecording: QueryableDataStore {
    /// Applies `request` and records `response(result)` under `key`, atomically with the save.
    /// When `key` was recorded before, applies nothing and returns the recorded response, if the
    /// request's `fingerprint` matches; a different fingerprint throws ``PersistenceError``
    /// `.idempotencyKeyReused` (the key was used for another save).
    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, receiptKey key: String, fingerprint: String,
              response: (DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data) throws -> SaveReceipt
}

extension PersistenceError.Code {
    /// An idempotency key arrived again with a different save.
    public static let idempotencyKeyReused = PersistenceError.Code(rawValue: "idempotencyKeyReused")
}
