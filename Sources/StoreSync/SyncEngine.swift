import Foundation
import Synchronization
import SwiftData

/// Offline-first sync of a local `ModelContainer` with a `StoreServer`: the app reads and saves
/// locally, never waiting for the network, and the engine pushes its saves to the server and
/// pulls everyone else's.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, BucketListItem.self, LivingAccommodation.self)
/// let engine = try SyncEngine(container: container, configuration: SyncConfiguration(
///     server: URL(string: "https://trips.example.com")!, token: "s3cret",
///     models: [Trip.self, BucketListItem.self, LivingAccommodation.self]))
///
/// try await engine.sync()     // one round: push, then pull
/// engine.start()              // or keep syncing: after saves, on the server's changes, retrying
/// ```
///
/// The local store must keep history (the default store, `JSONStore` with history,
/// `InMemoryStore`): the engine reads what changed from it. The engine uses only SwiftData's
/// public API, so the same code syncs an app running on Apple's SwiftData with this server.
/// See <doc:Sync> for the model, the guarantees and conflicts.
public final class SyncEngine: Sendable {
    /// What the engine is doing and how its last round went.
    public let status: SyncStatus
    private let worker: SyncWorker
    private let container: ModelContainer
    private let configuration: SyncConfiguration
    private let continuous = Mutex<ContinuousSync?>(nil)

    /// An engine syncing `container`'s synced models as `configuration` says. Throws
    /// ``SyncError`` (`.invalidConfiguration`) for a model that cannot be synced, or when the
    /// engine's state cannot be opened, and `.insecureTransport` for plain `http://` to another
    /// machine unless ``SyncConfiguration/allowsInsecureHTTP``.
    public init(container: ModelContainer, configuration: SyncConfiguration) throws {
        try configuration.checkTransport()
        status = SyncStatus()
        self.container = container
        self.configuration = configuration
        worker = try SyncWorker(container: container, configuration: configuration, status: status)
    }

    /// One round: pushes the local changes not pushed yet, then pulls the server's changes.
    /// Rounds run one at a time; a failed round loses nothing, and the next one goes on
    /// where it stopped.
    public func sync() async throws {
        try await worker.round()
    }

    /// Keeps syncing until ``stop()``: after each local save, after each change the server
    /// announces, and again after failures (waiting longer each time, up to
    /// ``SyncConfiguration/maximumRetryDelay``). Calling it while running does nothing.
    public func start() {
        continuous.withLock { running in
            guard running == nil else { return }
            running = ContinuousSync(worker: worker, container: container, configuration: configuration, status: status)
        }
    }

    /// Stops continuous sync, returning when the round under way (if any) is over.
    public func stop() async {
        let running = continuous.withLock { running -> ContinuousSync? in
            defer { running = nil }
            return running
        }
        await running?.stop()
    }

    /// Reads the local saves made since the last round and updates
    /// ``SyncStatus/pendingChanges``; returns the count.
    @discardableResult
    public func refreshPendingChanges() async throws -> Int {
        let count = try await worker.pendingChanges()
        status.update { $0.pendingChanges = count }
        return count
    }
}
