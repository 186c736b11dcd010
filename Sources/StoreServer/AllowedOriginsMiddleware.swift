import Foundation
import HTTPTypes
import Hummingbird
import StoreWire

/// Cross-origin resource sharing for the origins of ``StoreServerConfiguration/allowedOrigins``
/// alone: their browser pages may call the API, with a token, and read the answers. A request
/// from any other origin gets no CORS header, so the browser keeps its page from reading the
/// answer. (Hummingbird's `CORSMiddleware` answers every preflight, other origins' included.)
struct AllowedOriginsMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    /// What the API's requests use: GETs and JSON POSTs with a bearer token and, for saves, an
    /// idempotency key.
    static var allowedMethods: String { "GET, POST" }
    static var allowedHeaders: String { "Authorization, Content-Type, Accept, \(StoreAPI.idempotencyKeyHeader)" }
    /// What a page may read of an answer besides the safelisted headers: the request id to quote,
    /// and when to retry a 503.
    static var exposedHeaders: String { "X-Request-ID, Retry-After" }
    /// How long a browser may reuse a preflight's answer, in seconds.
    static var maxAge: String { "600" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        guard origins.contains(origin) else {
            var response = try await next(request, context)
            // The answer depends on the origin: a cache must not give this one to an allowed origin.
            response.headers[values: .vary].append("Origin")
            return response
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: origin,
                .accessControlAllowMethods: Self.allowedMethods,
                .accessControlAllowHeaders: Self.allowedHeaders,
                .accessControlMaxAge: Self.maxAge,
                .vary: "Origin",
            ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        response.headers[values: .vary].append("Origin")
        return response
    }
}

extension StoreServerConfiguration {
    /// Refuses an origin a browser never sends: one with a path, or not `http(s)://host[:port]`.
    func checkAllowedOrigins() throws {
        for origin in allowedOrigins {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
                  url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil else {
                throw StoreServerError(.invalidConfiguration, "The allowed origin '\(origin)' is not an origin; give the scheme, host and port the browser page is served from, such as https://app.example.com or http://localhost:3000, without a path or a trailing slash.")
            }
        }
    }
}
