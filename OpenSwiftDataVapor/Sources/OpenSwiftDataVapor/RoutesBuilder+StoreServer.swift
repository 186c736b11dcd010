import HTTPTypes
import NIOCore
import StoreServer
import Vapor

extension RoutesBuilder {
    /// Serves a ``StoreServer/StoreServer``'s HTTP API from this Vapor app, under this builder's
    /// path, with the server's own checks (bearer tokens, body limits, the request log and
    /// metrics, `/metrics`):
    ///
    /// ```swift
    /// let storeServer = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: ["s3cret"]))
    /// app.grouped("data").mount(storeServer)
    /// ```
    ///
    /// Clients then use `RemoteStoreConfiguration(url: URL(string: "http://host:8080/data")!, token: "s3cret")`.
    public func mount(_ server: StoreServer) {
        let api = server.responder()
        let maxBody = ByteCount(value: server.configuration.maxBodySize)
        let handler: @Sendable (Request) async throws -> Response = { request in
            try await StoreRequestBridge.answer(request, with: api)
        }
        on(.GET, "**", use: handler)
        on(.POST, "**", body: .collect(maxSize: maxBody), use: handler)
    }
}

/// Converts between Vapor's requests and responses and the HTTPTypes ones the API takes.
enum StoreRequestBridge {
    static func answer(_ request: Request, with api: StoreAPIResponder) async throws -> Response {
        var path = "/" + request.parameters.getCatchall().joined(separator: "/")
        if let query = request.url.query { path += "?" + query }
        let (answer, body) = await api.respond(to: request.httpTypesHead(path: path), body: request.body.data ?? ByteBuffer(), logger: request.logger)
        return Response(status: HTTPResponseStatus(statusCode: answer.status.code), headers: answer.headerFields.vaporHeaders, body: .init(buffer: body))
    }
}
