import ArgumentParser
import Configuration
import Foundation
import Hummingbird
import Logging
import OpenSwiftData
import StoreBrowser
import StoreServer

/// `openswiftdata-server`: serves the `trips` schema over HTTP (`serve`, the default subcommand),
/// or migrates a store file beforehand (`migrate`).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openswiftdata-server",
        abstract: ServeCommand.configuration.abstract,
        discussion: ServeCommand.configuration.discussion,
        version: PackageVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    /// A bare `--browse` means `--browse=read`: an option with an optional value, which the
    /// argument parser has no form for.
    static func main() async {
        LargeAllocations.returnToSystemWhenFreed()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let modes = Set(StoreBrowserConfiguration.Mode.allCases.map(\.rawValue))
        let normalized = arguments.indices.map { index in
            let valueFollows = index + 1 < arguments.count && modes.contains(arguments[index + 1])
            return arguments[index] == "--browse" && !valueFollows ? "--browse=read" : arguments[index]
        }
        await main(normalized)
    }
}

/// Serves the `trips` schema over HTTP for `trips --remote` and any other RemoteStore client.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve an OpenSwiftData store (the trips schema) over HTTP for RemoteStore clients.",
        discussion: """
            Every setting comes from its flag, else an OPENSWIFTDATA_ environment variable (OPENSWIFTDATA_PORT, \
            OPENSWIFTDATA_TOKENS comma-separated, OPENSWIFTDATA_MAX_BODY_SIZE, …), else the JSON file of --config \
            or OPENSWIFTDATA_CONFIG. Clients send a token as 'Authorization: Bearer <token>'.

            Tokens have scopes. A --token may read and save (the read and write scopes), a --read-token only \
            read, an --admin-token also batch-delete and delete history (admin); a request outside its token's \
            scopes gets 403. The environment's OPENSWIFTDATA_TOKENS, OPENSWIFTDATA_READ_TOKENS and \
            OPENSWIFTDATA_ADMIN_TOKENS, and the config file's "tokens", "readTokens" and "adminTokens", are the same.

            Tokens travel with every request, so a server other machines reach serves HTTPS: --tls-certificate and \
            --tls-key name PEM files (the certificate with its chain, and its unencrypted key; \
            OPENSWIFTDATA_TLS_CERTIFICATE and OPENSWIFTDATA_TLS_KEY, "tlsCertificate" and "tlsKey"). A key that \
            is not the certificate's stops the server at startup. For a private CA's certificate, clients pass that \
            CA's certificate: trips --remote https://… --ca-certificate ca.pem, or \
            RemoteStoreConfiguration's additionalRootCertificates. Without them, serve on 127.0.0.1 or behind a TLS proxy.

            Browser pages of other sites may call the API only from an origin given with --cors-origin \
            (repeatable; OPENSWIFTDATA_CORS_ORIGINS comma-separated, "corsOrigins"), such as \
            https://app.example.com; no origin is allowed by default.

            Requests are logged \
            at info level; GET /metrics (with a token) serves request counts and durations for Prometheus. Stops \
            gracefully on SIGINT or SIGTERM. A store written with an earlier trips schema is migrated when the \
            server starts; `openswiftdata-server migrate --store … --dry-run` shows the stages first.
            """,
        version: PackageVersion.current
    )

    @Option(help: ArgumentHelp("sqlite:PATH (the default store), json:PATH, memory, or postgres://user:password@host:port/database.", valueName: "kind:path"))
    var store: String?

    @Option(help: "The address to listen on (default: 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on (default: 8080; 0 picks a free one and prints it).")
    var port: Int?

    @Option(name: .customLong("token"), help: "A bearer token that may read and save (repeatable).")
    var tokens: [String] = []

    @Option(name: .customLong("read-token"), help: "A bearer token that may only read (repeatable).")
    var readTokens: [String] = []

    @Option(name: .customLong("admin-token"), help: "A bearer token that may also batch-delete and delete history (repeatable).")
    var adminTokens: [String] = []

    @Option(help: "The largest request body accepted, in bytes (default: 4 MiB); larger ones get 413. A save costs about three times its body in memory while it runs.")
    var maxBodySize: Int?

    @Option(help: "The longest the store may take for one request, in seconds (default: 30).")
    var timeLimit: Int?

    @Option(help: "trace, debug, info (the default), notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: ArgumentHelp("Also serve the data browser at /browse: --browse (read-only) or --browse=edit (editing and deleting models).",
                               valueName: "read|edit"))
    var browse: String?

    @Option(help: ArgumentHelp("The server's certificate (PEM, with its chain): serve HTTPS.", valueName: "path"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The certificate's private key (PEM, unencrypted).", valueName: "path"))
    var tlsKey: String?

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp("A browser origin whose pages may call the API, such as https://app.example.com (repeatable).", valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: ArgumentHelp("A JSON file of settings, keyed as the flags are in camel case (maxBodySize).", valueName: "path"))
    var config: String?

    func run() async throws {
        var flags: [ServerSettings.Key: ConfigContent] = [:]
        flags[.store] = store.map { .string($0) }
        flags[.host] = host.map { .string($0) }
        flags[.port] = port.map { .int($0) }
        flags[.tokens] = tokens.isEmpty ? nil : .stringArray(tokens)
        flags[.readTokens] = readTokens.isEmpty ? nil : .stringArray(readTokens)
        flags[.adminTokens] = adminTokens.isEmpty ? nil : .stringArray(adminTokens)
        flags[.maxBodySize] = maxBodySize.map { .int($0) }
        flags[.timeLimit] = timeLimit.map { .int($0) }
        flags[.logLevel] = logLevel.map { .string($0) }
        flags[.browse] = browse.map { .string($0) }
        flags[.config] = config.map { .string($0) }
        flags[.tlsCertificate] = tlsCertificate.map { .string($0) }
        flags[.tlsKey] = tlsKey.map { .string($0) }
        flags[.corsOrigins] = corsOrigins.isEmpty ? nil : .stringArray(corsOrigins)
        let settings = try await ServerSettings.read(flags: flags)

        var logger = Logger(label: "openswiftdata.server")
        guard let level = Logger.Level(rawValue: settings.logLevel) else {
            throw ValidationError("The log level must be one of trace, debug, info, notice, warning, error, critical (got '\(settings.logLevel)').")
        }
        logger.logLevel = level
        ModelContainer.logger = logger
        guard !settings.tokens.isEmpty else {
            throw ValidationError("Give at least one bearer token with --token, OPENSWIFTDATA_TOKENS or \"tokens\" in the config file (or a --read-token or --admin-token), so only your clients can use the store.")
        }
        var configuration = try StoreServerConfiguration(host: settings.host, port: settings.port, tokens: settings.tokens,
                                                         maxBodySize: settings.maxBodySize, requestTimeLimit: .seconds(settings.timeLimit))
        configuration.tls = try settings.tls()
        configuration.allowedOrigins = settings.corsOrigins
        let location = try StoreLocation(settings.store)
        let container = try location.container(timeout: .seconds(settings.timeLimit))
        var server = try StoreServer(container: container, configuration: configuration, logger: logger)
        let browser = try settings.browse.map { try Self.browser(of: server, mode: $0) }
        if let browser {
            server.additionalRoutes.append { router in
                router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/browse/"]) }
                browser.addRoutes(to: router, atPath: "/browse")
            }
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        try await server.run { [logger, configuration] port in
            logger.info("openswiftdata-server listening on \(scheme)://\(configuration.host):\(port) (store \(location.redacted))")
            if let browser {
                logger.info("data browser (\(browser.configuration.mode == .edit ? "editing" : "read-only")) at \(scheme)://\(configuration.host):\(port)/browse/")
            }
        }
        logger.info("openswiftdata-server stopped")
    }

    private static func browser(of server: StoreServer, mode: String) throws -> StoreBrowser {
        guard let mode = StoreBrowserConfiguration.Mode(rawValue: mode) else {
            throw ValidationError("--browse takes read or edit (got '\(mode)'): --browse serves the data browser read-only, --browse=edit lets it edit and delete models.")
        }
        return StoreBrowser(server: server, configuration: try StoreBrowserConfiguration(mode: mode))
    }
}
