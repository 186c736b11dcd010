import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The store's HTTP API as a function from request to response, for web frameworks other than
/// Hummingbird: their route handler passes each request under its mount point on, with the path
/// below that point (`/v1/fetch`), and sends back what it gets.
///
/// ```swift
/// let api = storeServer.responder()
/// let (head, body) = await api.respond(to: HTTPRequest(method: .post, scheme: "http", authority: "host",
///                                                      path: "/v1/fetch", headerFields: fields),
///                                      body: requestBytes, logger: logger)
/// ```
///
/// The answers are those of a running ``StoreServer``, with the same middleware: the request
/// log, metrics, JSON error bodies and bearer tokens. The OpenSwiftDataVapor package uses it.
public struct StoreAPIResponder: Sendable {
    private let responder: any HTTPResponder<EmbeddedRequestContext>

    init(_ server: StoreServer) {
        let router = Router(context: EmbeddedRequestContext.self)
        server.addMiddleware(to: router)
        server.addEndpoints(to: router)
        responder = router.buildResponder()
    }

    /// The response to one request, its body collected; `logger` is the request's (its metadata,
    /// such as a request id, is kept).
    public func respond(to head: HTTPRequest, body: ByteBuffer, logger: Logger) async -> (HTTPResponse, ByteBuffer) {
        var requestLogger = logger
        if requestLogger[metadataKey: "hb.request.id"] == nil {
            requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        }
        let context = EmbeddedRequestContext(source: EmbeddedRequestContext.Source(logger: requestLogger))
        let response: Response
        do {
            response = try await responder.respond(to: Request(head: head, body: RequestBody(buffer: body)), context: context)
        } catch {
            // The error middleware answers every error; this is only reached if encoding its answer failed.
            return (HTTPResponse(status: .internalServerError), ByteBuffer())
        }
        let collector = BodyCollector()
        do {
            try await response.body.write(collector)
        } catch {
            return (HTTPResponse(status: .internalServerError), ByteBuffer())
        }
        return (response.head, await collector.body)
    }
}

extension StoreServer {
    /// The API for another web framework's routes (see ``StoreAPIResponder``); make it once and
    /// keep it.
    public func responder() -> StoreAPIResponder {
        StoreAPIResponder(self)
    }
}

/// A request context that needs no channel: the request arrives through another framework.
struct EmbeddedRequestContext: RequestContext {
    struct Source: RequestContextSource {
        let logger: Logger
    }

    var coreContext: CoreRequestContextStorage

    init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}

/// Gathers a response body written in parts.
private actor BodyCollector: ResponseBodyWriter {
    var body = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        body.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
