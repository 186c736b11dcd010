import ArgumentParser
import Foundation
import JSONStore
import Logging
import OpenSwiftData
import SampleTrips
import StoreServer

/// Serves the `trips` schema over HTTP for `trips --remote` and any other RemoteStore client.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openswiftdata-server",
        abstract: "Serve an OpenSwiftData store (the trips schema) over HTTP for RemoteStore clients.",
        discussion: """
            Tokens come from --token (repeatable) or the comma-separated OPENSWIFTDATA_TOKENS variable; \
            clients send one as 'Authorization: Bearer <token>'. Requests are logged at info level;             GET /metrics (with a token) serves request counts and durations for Prometheus. Stops gracefully             on SIGINT or SIGTERM.
            """,
        version: PackageVersion.current
    )

    @Option(help: ArgumentHelp("sqlite:PATH (the default store), json:PATH, or memory.", valueName: "kind:path"))
    var store: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one and prints it).")
    var port = 8080

    @Option(name: .customLong("token"), help: "A bearer token clients may use (repeatable).")
    var tokens: [String] = []

    @Option(help: "The largest request body accepted, in bytes.")
    var maxBodySize = 16 << 20

    @Option(help: "The longest the store may take for one request, in seconds.")
    var timeLimit = 30

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func run() async throws {
        var logger = Logger(label: "openswiftdata.server")
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        logger.logLevel = level
        ModelContainer.logger = logger
        let tokens = Set(tokens).union(StoreServerConfiguration.tokens(fromEnvironment: "OPENSWIFTDATA_TOKENS"))
        guard !tokens.isEmpty else {
            throw ValidationError("Give at least one bearer token with --token or OPENSWIFTDATA_TOKENS, so only your clients can use the store.")
        }
        let configuration = try StoreServerConfiguration(host: host, port: port, tokens: tokens, maxBodySize: maxBodySize,
                                                         requestTimeLimit: .seconds(timeLimit))
        let container = try ModelContainer(for: Schema(SampleTripsSchema.models), configurations: [try storeConfiguration()])
        let server = try StoreServer(container: container, configuration: configuration, logger: logger)
        let store = store
        try await server.run { [logger] port in
            logger.info("openswiftdata-server listening on http://\(configuration.host):\(port) (store \(store))")
        }
        logger.info("openswiftdata-server stopped")
    }

    private func storeConfiguration() throws -> any DataStoreConfiguration {
        let parts = store.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("sqlite", 2): return ModelConfiguration(url: URL(fileURLWithPath: parts[1]))
        case ("json", 2): return JSONStoreConfiguration(name: "trips", url: URL(fileURLWithPath: parts[1]))
        case ("memory", 1): return ModelConfiguration(isStoredInMemoryOnly: true)
        default: throw ValidationError("--store must be sqlite:PATH, json:PATH or memory (got '\(store)').")
        }
    }
}
