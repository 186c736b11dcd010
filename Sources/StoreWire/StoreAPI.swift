import Foundation

/// The HTTP API between `RemoteStore` and `StoreServer` (described for people in
/// `Sources/StoreServer/openapi.yaml`): every call is a JSON `POST` under `/v1`, authenticated
/// with `Authorization: Bearer <token>`, except the health check and the API document.
package enum StoreAPI {
    package static let health = "/v1/health"
    package static let document = "/v1/openapi.yaml"
    package static let fetch = "/v1/fetch"
    /// The matching models as rows in their type's property order (``RowsResponse``).
    package static let rows = "/v1/rows"
    package static let count = "/v1/count"
    package static let identifiers = "/v1/identifiers"
    package static let save = "/v1/save"
    package static let batchDelete = "/v1/batch-delete"
    /// The history transactions a ``HistoryRequest`` selects (``HistoryResponse``).
    package static let history = "/v1/history"
    /// Deletes the history transactions a ``HistoryRequest`` selects.
    package static let deleteHistory = "/v1/history/delete"
    /// Server-sent events: one ``HistoryEvent`` on connecting and after each new transaction.
    package static let historyEvents = "/v1/history/events"
    /// A sync client's changes (``SyncPushRequest``), applied once per idempotency key.
    package static let syncPush = "/v1/sync/push"
    /// The changes after a history transaction, with the changed models' rows (``SyncPullRequest``).
    package static let syncPull = "/v1/sync/pull"
    /// Every model of an entity, for a first sync (``SyncSnapshotRequest``).
    package static let syncSnapshot = "/v1/sync/snapshot"
    /// What others changed that a push would overwrite (``SyncConflictsRequest``); read-only.
    package static let syncConflicts = "/v1/sync/conflicts"
    /// The served schema's version and entity fingerprints (`StoredSchema`), as a `GET`.
    package static let schema = "/v1/schema"

    /// The calls that change the store: one whose answer is lost may have been applied.
    package static let changing: Set<String> = [save, batchDelete, deleteHistory]

    /// Carries the client's key for one logical save; a retry sends the same key.
    package static let idempotencyKeyHeader = "Idempotency-Key"
    /// Set on a save response that repeats the recorded response of an earlier attempt.
    package static let replayedHeader = "Idempotent-Replayed"
}
