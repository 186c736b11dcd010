import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import OpenSwiftData
import Prometheus
import StoreWire

/// Serves a container's store over HTTP/JSON, for `RemoteStore` clients: fetches, counts and
/// batch deletes run in the server's store (in SQL for the default store), saves return the
/// permanent identifiers and are applied once per idempotency key.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: storeURL))
/// let server = try StoreServer(container: container,
///                              configuration: StoreServerConfiguration(port: 8080, tokens: ["s3cret"]))
/// try await server.run()          // until SIGINT or SIGTERM
/// ```
///
/// The API is described in `openapi.yaml` (served at `/v1/openapi.yaml`). Every request but the
/// health check and that document needs `Authorization: Bearer <token>`. Requests name entities
/// and properties, never SQL; the server checks every name against the container's schema.
///
/// On Linux, run the process with `MALLOC_MMAP_THRESHOLD_=131072` (as `openswiftdata-server` sets
/// for itself): glibc otherwise raises that threshold after the first large body, and keeps the
/// memory of later ones once they are freed.
public struct StoreServer: Sendable {
    /// How the server listens and what it accepts.
    public let configuration: StoreServerConfiguration
    /// The server's request counts and durations, served at `/metrics` (see ``addRoutes(to:atPath:)``).
    public let metrics: PrometheusCollectorRegistry
    let routes: StoreRoutes
    let requestMetrics: RequestMetrics
    let logger: Logger
    /// Routes of this package's other targets (the store browser) that ``application(onServerRunning:)``
    /// serves beside the API, added before the API's middleware so that they bring their own.
    package var additionalRoutes: [@Sendable (Router<BasicRequestContext>) -> Void] = []

    /// `metrics` is the registry the request metrics go to; pass your application's own to serve
    /// its metrics and the server's at one `/metrics`.
    public init(container: ModelContainer, configuration: StoreServerConfiguration,
                logger: Logger = Logger(label: "openswiftdata.server"),
                metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) throws {
        try configuration.checkAllowedOrigins()
        self.configuration = configuration
        routes = StoreRoutes(store: try ServedStore(container: container, lockWait: configuration.requestTimeLimit), tokens: TokenBook(configuration.tokens),
                             body: JSONBody(maxSize: configuration.maxBodySize, maxDepth: configuration.maxJSONDepth),
                             queryLimits: QueryLimits(maxListLength: configuration.maxQueryListLength, maxNodes: configuration.maxQueryNodes),
                             work: BlockingWork(limit: configuration.requestTimeLimit, schema: container.schema))
        self.metrics = metrics
        requestMetrics = RequestMetrics(factory: PrometheusMetricsFactory(registry: metrics))
        self.logger = logger
    }

    /// The server as a Hummingbird application (a swift-service-lifecycle `Service`), to run
    /// alone or beside other services. `onServerRunning` receives the port it listens on.
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router()
        for add in additionalRoutes { add(router) }
        if !configuration.allowedOrigins.isEmpty {
            router.add(middleware: AllowedOriginsMiddleware(origins: Set(configuration.allowedOrigins)))
        }
        addMiddleware(to: router)
        addEndpoints(to: router)
        return Application(
            router: router,
            server: serverBuilder(),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: "openswiftdata-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// HTTP/1.1, inside TLS when the configuration has a certificate. The TLS configuration was
    /// checked when it was made, so building its context here does not fail on a bad pair.
    private func serverBuilder() -> HTTPServerBuilder {
        let idle = TimeAmount.nanoseconds(configuration.idleTimeout.wholeNanoseconds)
        let bodyLimit = TimeAmount.nanoseconds(configuration.bodyTimeLimit.wholeNanoseconds)
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [ParserErrorResponder(), BodyDeadline(limit: bodyLimit)],
                                               idleTimeout: idle)
        guard let tls = configuration.tls else { return .http1(configuration: http1) }
        return HTTPServerBuilder { responder in
            try TLSChannel(HTTP1Channel(responder: responder, configuration: http1), tlsConfiguration: tls.configuration)
        }
    }

    /// Runs until SIGINT or SIGTERM (or until the calling task is cancelled), then finishes the
    /// requests under way and stops. The server's tasks run on threads of their own (see
    /// `ServerExecutor`), so clients blocking in the same process cannot starve it.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let application = application(onServerRunning: onServerRunning)
        try await withTaskExecutorPreference(ServerExecutor.shared) {
            try await application.runService()
        }
    }
}
