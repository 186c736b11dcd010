import HTTPTypes
import NIOCore
import StoreBrowser
import Vapor

extension RoutesBuilder {
    /// Serves a ``StoreBrowser/StoreBrowser``'s pages from this Vapor app, under this builder's path,
    /// beside the app's own routes:
    ///
    /// ```swift
    /// let storeServer = try StoreServer(container: container, configuration: StoreServerConfiguration(tokens: ["s3cret"]))
    /// app.grouped("data").mount(storeServer)
    /// app.grouped("browse").mount(StoreBrowser(server: storeServer, configuration: try StoreBrowserConfiguration(mode: .edit)))
    /// ```
    ///
    /// The pages bring their own login (one of the server's tokens, kept in a `Secure` cookie),
    /// CSRF checks and error pages; the live updates stream while the page stays open.
    public func mount(_ browser: StoreBrowser) {
        let handler: @Sendable (Request) async throws -> Response = { request in
            await BrowserRequestBridge.answer(request, with: browser)
        }
        on(.GET, use: handler)
        on(.GET, "**", use: handler)
        on(.POST, use: handler)
        on(.POST, "**", body: .collect(maxSize: ByteCount(value: 1 << 20)), use: handler)
    }
}

/// Converts between Vapor's requests and responses and the browser's.
enum BrowserRequestBridge {
    static func answer(_ request: Request, with browser: StoreBrowser) async -> Response {
        // The mount point is the path without the part the catch-all matched.
        let remainder = request.parameters.getCatchall()
        var components = request.url.path.split(separator: "/")
        components.removeLast(min(remainder.count, components.count))
        let prefix = components.isEmpty ? "" : "/" + components.joined(separator: "/")
        var path = request.url.path
        if let query = request.url.query { path += "?" + query }
        let answer = await browser.respond(to: request.httpTypesHead(path: path), mountedAt: prefix, body: request.body.data ?? ByteBuffer())
        let headers = answer.head.headerFields.vaporHeaders
        let status = HTTPResponseStatus(statusCode: answer.head.status.code)
        switch answer.body {
        case .bytes(let buffer):
            return Response(status: status, headers: headers, body: .init(buffer: buffer))
        case .stream(let stream):
            return Response(status: status, headers: headers, body: .init(asyncStream: { writer in
                for await part in stream { try await writer.writeBuffer(part) }
                try await writer.write(.end)
            }))
        }
    }
}
