import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import StoreServer

/// A data browser for a `StoreServer`'s store, in the web browser: the schema with
/// counts and a diagram, each entity as a sorted, filtered, paged table, each model with its
/// relationships and history, editing and deleting through a `ModelContext`, and pages that
/// update when another client saves. Server-rendered HTML with a small stylesheet and script,
/// all served by the server itself.
///
/// ```swift
/// let server = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: ["s3cret": [.read, .write, .admin]]))
/// let browser = StoreBrowser(server: server, configuration: try StoreBrowserConfiguration(mode: .edit))
/// let router = Router()
/// server.addRoutes(to: router, atPath: "/data")
/// browser.addRoutes(to: router, atPath: "/browse")
/// try await Application(router: router).runService()
/// ```
///
/// People log in with one of the server's tokens that has the read scope (editing needs the admin
/// scope too); the browser then keeps a `Secure`, `HttpOnly`,
/// `SameSite=Strict` session cookie, so browse over HTTPS, or from localhost. Every form carries a
/// CSRF token, and every value is escaped.
public struct StoreBrowser: Sendable {
    /// What the browser lets its users do.
    public var configuration: StoreBrowserConfiguration { core.configuration }
    let core: BrowserCore
    /// The largest form the browser reads.
    static let maxFormSize = 1 << 20

    /// A browser of the server's store, behind the server's tokens.
    public init(server: StoreServer, configuration: StoreBrowserConfiguration) {
        core = BrowserCore(server: server.browsing, configuration: configuration)
    }

    /// Adds the browser's pages to a Hummingbird router under `path`, beside your own routes.
    /// They bring their own login and error pages; put them outside middleware that demands a
    /// bearer token (such as the store API's, added by `StoreServer.addRoutes(to:atPath:)`).
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>, atPath path: String = "/browse") {
        let group = router.group(RouterPath(path))
        let core = core
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            let remainder = context.parameters.getCatchAll()
            var components = request.uri.path.split(separator: "/")
            components.removeLast(min(remainder.count, components.count))
            let prefix = components.isEmpty ? "" : "/" + components.joined(separator: "/")
            let body = request.method == .post ? try await request.body.collect(upTo: Self.maxFormSize) : ByteBuffer()
            let browserRequest = BrowserRequest(method: request.method, prefix: prefix, path: remainder.joined(separator: "/"),
                                                query: request.uri.query, headers: request.headers, body: Array(buffer: body))
            return Self.response(await core.respond(browserRequest))
        }
        for route in ["", "**"] {
            group.get(RouterPath(route), use: handler)
            group.post(RouterPath(route), use: handler)
        }
    }

    /// Answers one request for a web framework other than Hummingbird (the OpenSwiftDataVapor
    /// package uses it): `head.path` is the request's whole path and query, `prefix` the part
    /// of it where the browser is mounted (`/browse`), `body` a form's bytes.
    public func respond(to head: HTTPRequest, mountedAt prefix: String, body: ByteBuffer) async -> StoreBrowserResponse {
        let target = head.path ?? "/"
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        if path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        let request = BrowserRequest(method: head.method, prefix: prefix, path: path, query: parts.count > 1 ? String(parts[1]) : nil,
                                     headers: head.headerFields, body: Array(buffer: body))
        return await core.respond(request)
    }

    static func response(_ answer: StoreBrowserResponse) -> Response {
        switch answer.body {
        case .bytes(let buffer):
            return Response(status: answer.head.status, headers: answer.head.headerFields, body: ResponseBody(byteBuffer: buffer))
        case .stream(let stream):
            return Response(status: answer.head.status, headers: answer.head.headerFields, body: ResponseBody { writer in
                for await part in stream.cancelOnGracefulShutdown() { try await writer.write(part) }
                try await writer.finish(nil)
            })
        }
    }
}
