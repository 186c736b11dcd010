import CoreMetrics
import Dispatch
import Hummingbird
import StoreWire

/// Counts and times the API's requests by route (swift-metrics), for the server's `/metrics`:
/// `openswiftdata_server_requests_total`, `openswiftdata_server_request_errors_total` (answers
/// of 400 and up) and `openswiftdata_server_request_duration`, each with a `route` dimension
/// (`/v1/fetch`, `/v1/save`, …). The metrics are made once, so a request allocates nothing for them.
struct RequestMetrics: Sendable {
    struct Route: Sendable {
        let requests: Counter
        let errors: Counter
        let duration: CoreMetrics.Timer
    }

    static let routes = [StoreAPI.fetch, StoreAPI.rows, StoreAPI.count, StoreAPI.identifiers, StoreAPI.save, StoreAPI.batchDelete]
    private let byPath: [(suffix: String, route: Route)]

    init(factory: any MetricsFactory) {
        byPath = Self.routes.map { path in
            let route = [("route", path)]
            return (path, Route(requests: Counter(label: "openswiftdata_server_requests_total", dimensions: route, factory: factory),
                                errors: Counter(label: "openswiftdata_server_request_errors_total", dimensions: route, factory: factory),
                                duration: CoreMetrics.Timer(label: "openswiftdata_server_request_duration", dimensions: route, factory: factory)))
        }
    }

    /// The route a path ends with (the routes may be mounted under a prefix).
    func route(of path: String) -> Route? {
        byPath.first { path.hasSuffix($0.suffix) }?.route
    }
}

/// Records ``RequestMetrics`` for the requests it sees. It sits outside the error middleware, so
/// it sees every failure as the response with its status; unauthorized requests count too.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let route = metrics.route(of: request.uri.path) else { return try await next(request, context) }
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            route.requests.increment()
            route.duration.recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - started))
        }
        do {
            let response = try await next(request, context)
            if response.status.code >= 400 { route.errors.increment() }
            return response
        } catch {
            route.errors.increment()
            throw error
        }
    }
}
