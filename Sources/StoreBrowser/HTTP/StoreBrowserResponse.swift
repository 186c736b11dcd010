import HTTPTypes
import NIOCore

/// A browser page or stream as a web framework sends it: the head, then the body, whole or as a
/// stream that lasts while the client stays (the live updates' server-sent events).
public struct StoreBrowserResponse: Sendable {
    /// What the body is.
    public enum Body: Sendable {
        /// The whole body.
        case bytes(ByteBuffer)
        /// Parts to send as they come; the stream ends when the page's updates stop.
        case stream(AsyncStream<ByteBuffer>)
    }

    /// The status and header fields.
    public var head: HTTPResponse
    /// The body.
    public var body: Body

    init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Body = .bytes(ByteBuffer())) {
        head = HTTPResponse(status: status, headerFields: headers)
        self.body = body
    }

    /// An HTML page, never cached: pages show the store as it is now and may hold a CSRF token.
    static func html(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> StoreBrowserResponse {
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return StoreBrowserResponse(status: status, headers: fields, body: .bytes(ByteBuffer(string: text)))
    }

    /// `303 See Other` to `location`, the answer to a form that worked.
    static func redirect(to location: String, headers: HTTPFields = [:]) -> StoreBrowserResponse {
        var fields = headers
        fields[.location] = location
        fields[.cacheControl] = "no-store"
        return StoreBrowserResponse(status: .seeOther, headers: fields)
    }

    /// Headers every answer carries: scripts, styles and images only from the browser itself (no
    /// CDN, no inline script), no framing, no referrer (URLs hold filters), no type sniffing.
    mutating func addSecurityHeaders() {
        head.headerFields[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        head.headerFields[.xContentTypeOptions] = "nosniff"
        head.headerFields[Self.referrerPolicy] = "no-referrer"
        head.headerFields[Self.frameOptions] = "DENY"
    }

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    private static let frameOptions = HTTPField.Name("X-Frame-Options")!
}
