import Foundation
import SwiftData

/// Where a ``SyncEngine`` syncs, what, and how.
///
/// ```swift
/// var configuration = SyncConfiguration(server: URL(string: "https://trips.example.com")!, token: "s3cret",
///                                       models: [Trip.self, BucketListItem.self, LivingAccommodation.self])
/// configuration.resolver = { conflict in .keepServer }
/// let engine = try SyncEngine(container: container, configuration: configuration)
/// ```
public struct SyncConfiguration: Sendable {
    /// The `openswiftdata-server` (or any app serving `StoreServer`'s routes) to sync with:
    /// `http://host:port`, with the path prefix the routes were added under, if any.
    public var server: URL
    /// The server's bearer token.
    public var token: String
    /// Whether the token may travel unencrypted, over `http://`, to a host other than this
    /// machine. Off by default: anyone on the network path could read the token and use it.
    /// Loopback hosts (`localhost`, `127.0.0.0/8`, `::1`) never need it.
    public var allowsInsecureHTTP: Bool
    /// The model types to sync; every one must be in the container's schema and the server's.
    /// Other model types of the container stay local.
    public var models: [any PersistentModel.Type]
    /// Where the engine keeps its own state: the tokens of the last push and pull, the map
    /// between local models and the server's, and the changes not pushed yet.
    public var stateLocation: StateLocation
    /// The author the engine saves pulled changes under, which its pushes leave out. Local
    /// saves under this author are never pushed.
    public var author: String
    /// How many models one push sends at most.
    public var pushBatchSize: Int
    /// How many of the server's transactions one pull request asks for at most.
    public var pullPageSize: Int
    /// How many models one request of a first sync asks for.
    public var snapshotPageSize: Int
    /// How long one request may take.
    public var requestTimeout: Duration
    /// After a failed round of continuous sync: the first wait before the next try, doubled
    /// after each failure up to ``maximumRetryDelay``.
    public var initialRetryDelay: Duration
    /// The longest wait between tries of continuous sync.
    public var maximumRetryDelay: Duration
    /// How often continuous sync looks for saves it was not told of (other processes writing
    /// the same store file) and asks the server for changes when its events stream is down.
    public var pollInterval: Duration
    /// Decides conflicts; nil applies the defaults (see ``SyncConflict``).
    public var resolver: SyncResolver?
    /// What sends the engine's requests; nil is a `URLSession` of the engine's own. See
    /// ``SyncHTTPClient`` for when to give another.
    public var httpClient: (any SyncHTTPClient)?

    /// Where the engine's state lives. It must last as long as the local store: state lost
    /// while the store's models remain makes the next sync push them all as new.
    public enum StateLocation: Sendable, Equatable {
        /// Beside the container's store file: `Trips.store` gets `Trips.store.sync`.
        case besideStore
        /// In a store file of its own at this URL.
        case file(URL)
        /// In memory, for a local store that is in memory too.
        case inMemory
    }

    /// A configuration syncing `models` with the server at `server`.
    public init(server: URL, token: String, models: [any PersistentModel.Type]) {
        self.server = server
        self.token = token
        allowsInsecureHTTP = false
        self.models = models
        stateLocation = .besideStore
        author = "StoreSync"
        pushBatchSize = 500
        pullPageSize = 200
        snapshotPageSize = 2_000
        requestTimeout = .seconds(30)
        initialRetryDelay = .milliseconds(250)
        maximumRetryDelay = .seconds(30)
        pollInterval = .seconds(2)
        resolver = nil
        httpClient = nil
    }
}
