import ArgumentParser
import Foundation
import OpenSwiftData
import SampleTrips
import StoreSync

/// `trips sync`: one round of StoreSync between a local store and an openswiftdata-server. The
/// local store never needs the server: edits saved while it is down stay pending in the store
/// and the engine's state beside it, and the next round that reaches the server sends them.
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync the local store with an openswiftdata-server: push, then pull.",
        discussion: """
            One round: the trips saved locally since the last sync go to the server, then the \
            changes other clients made there come down. The local store works without the \
            server; what is saved meanwhile goes up with the next sync that reaches it. The sync \
            state (what was pushed and pulled, and which server model each local one is) is kept \
            beside the store, in STORE.sync.
            """
    )

    @Option(help: ArgumentHelp("The local store file, created if missing (default: the default store).", valueName: "path"))
    var store: String?

    @Option(help: ArgumentHelp("The URL of the openswiftdata-server to sync with.", valueName: "url"))
    var remote: String

    @Option(help: ArgumentHelp(StoreOptions.tokenHelp, valueName: "token"))
    var token: String?

    @Flag(name: .customLong("allow-insecure-http"), help: ArgumentHelp(StoreOptions.insecureHelp))
    var allowsInsecureHTTP = false

    @Option(name: .customLong("ca-certificate"), help: ArgumentHelp(StoreOptions.authorityHelp, valueName: "path"))
    var authority: String?

    /// Long enough for a big first pull's pages, short enough that a stalled server does not
    /// hold the terminal for long; a server that is down answers at once.
    static let requestTimeout = Duration.seconds(15)

    func validate() throws {
        guard let url = URL(string: remote), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--remote must be the URL of an openswiftdata-server, such as http://127.0.0.1:8080 (got '\(remote)').")
        }
        try StoreOptions.checkTransport(remote, allowsInsecureHTTP: allowsInsecureHTTP)
        if let authority {
            guard url.scheme == "https" else { throw ValidationError("--ca-certificate only applies with --remote https://.") }
            guard FileManager.default.isReadableFile(atPath: authority) else {
                throw ValidationError("--ca-certificate: \(authority) cannot be read; give the path of the CA's certificate (PEM).")
            }
        }
        if let store, store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") {
            throw ValidationError("trips sync syncs a local store file; to share a PostgreSQL database, serve it with openswiftdata-server and sync with that.")
        }
    }

    func run() async throws {
        guard let token = token ?? ProcessInfo.processInfo.environment["OPENSWIFTDATA_TOKEN"], !token.isEmpty else {
            throw ValidationError("trips sync needs the server's token: pass --token or set OPENSWIFTDATA_TOKEN.")
        }
        let server = URL(string: remote)!
        let (container, location) = try localStore()
        var configuration = SyncConfiguration(server: server, token: token, models: TripsSchemaV2.models)
        configuration.requestTimeout = Self.requestTimeout
        configuration.allowsInsecureHTTP = allowsInsecureHTTP
        let trusting = authority.map(TrustingSyncClient.init(authority:))
        configuration.httpClient = trusting
        let engine = try SyncEngine(container: container, configuration: configuration)
        let before = try PulledChanges.latestToken(ModelContext(container))
        var pending = 0
        do {
            pending = try await engine.refreshPendingChanges()
            try await engine.sync()
            await trusting?.shutdown()
        } catch {
            await trusting?.shutdown()
            guard let error = error as? SyncError else { throw error }
            throw Self.failure(error, pending: pending, server: remote, store: location)
        }
        let pushed = max(0, pending - engine.status.pendingChanges)
        print(pushed == 0 ? "Nothing to push." : "Pushed \(Self.count(pushed, "change")) to \(remote).")
        let context = ModelContext(container)
        let pulled = try PulledChanges(context, after: before, author: configuration.author)
        print(try pulled.summary(catalog: TripCatalog(context)))
    }

    /// The local store (migrated to the current schema as it opens, like every subcommand's) and
    /// its path for messages.
    private func localStore() throws -> (ModelContainer, String) {
        let schema = Schema(versionedSchema: TripsSchemaV2.self)
        let configuration: ModelConfiguration
        if let store {
            let url = URL(fileURLWithPath: store)
            try StoreOptions.checkStorePath(url, creating: true)
            configuration = ModelConfiguration(url: url)
        } else {
            configuration = ModelConfiguration()
        }
        let container = try ModelContainer(for: schema, migrationPlan: TripsMigrationPlan.self, configurations: [configuration])
        return (container, configuration.url.path)
    }

    /// A failed round as the terminal shows it. An unreachable server is the expected case of
    /// working offline, so its message says what was kept rather than only what failed; the
    /// engine's own message follows, for the cause.
    static func failure(_ error: SyncError, pending: Int, server: String, store: String) -> TripsError {
        guard error.isRetryable else { return TripsError("\(error.code): \(error.message)") }
        let reason = error.code == .offline ? "is unreachable" : "cannot serve now"
        let kept = switch pending {
        case 0: "There were no local changes to send"
        case 1: "The 1 local change not synced yet stays in \(store)"
        default: "The \(pending) local changes not synced yet stay in \(store)"
        }
        return TripsError("""
            \(error.code): \(server) \(reason), so nothing was synced. \(kept), and trips works on the store as before; \
            run `trips sync` again when the server is back.
            Cause: \(error.message)
            """)
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
