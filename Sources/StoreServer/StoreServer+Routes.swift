import Hummingbird
import Prometheus

extension StoreServer {
    /// Adds the store's HTTP API to your own Hummingbird router, under `path`, so one application
    /// serves your routes and the store:
    ///
    /// ```swift
    /// let storeServer = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: ["s3cret"]))
    /// let router = Router()
    /// router.get("/") { _, _ in "My app" }
    /// storeServer.addRoutes(to: router, atPath: "/data")
    /// let app = Application(router: router, configuration: .init(address: .hostname("0.0.0.0", port: 8080)))
    /// try await app.runService()
    /// ```
    ///
    /// Clients then name the prefix in their URL:
    /// `RemoteStoreConfiguration(url: URL(string: "http://host:8080/data")!, token: "s3cret")`.
    ///
    /// The routes bring their own middleware, which applies to them alone: the request log, the
    /// request metrics, JSON error bodies and the configuration's bearer tokens and their scopes, body limits and
    /// time limit per request. `GET <path>/metrics` serves ``metrics`` in the Prometheus text
    /// format, behind the same tokens. The configuration's host, port, idle timeout, TLS and allowed
    /// origins are your application's to choose and are not used here.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>, atPath path: String = "") {
        let group = router.group(RouterPath(path))
        addMiddleware(to: group)
        addEndpoints(to: group)
    }

    /// Middleware applies to the endpoints added after it; added to a `Router` itself, it also
    /// answers requests for paths that have no endpoint.
    func addMiddleware<Context: RequestContext>(to router: some RouterMethods<Context>) {
        _ = router.add(middleware: RequestLogMiddleware())
        _ = router.add(middleware: RequestMetricsMiddleware(metrics: requestMetrics))
        _ = router.add(middleware: ErrorBodyMiddleware())
        _ = router.add(middleware: BearerTokenMiddleware(tokens: routes.tokens, scope: nil))
    }

    func addEndpoints<Context: RequestContext>(to router: some RouterMethods<Context>) {
        routes.register(on: router)
        let metrics = metrics
        routes.routes(needing: .read, on: router).get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
        }
    }
}
