import Foundation
import NIOHTTP1
import OpenSwiftData
import StoreServer
import StoreWire
import Testing

/// Cross-origin requests: off by default; when origins are configured, their browser pages get
/// preflights answered and may read answers, and every other origin gets no CORS header.
@Suite final class CORSTests {
    static let allowed = "https://app.example.com"
    let directory: URL

    init() throws {
        directory = try makeDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func preflight(_ server: RunningStoreServer, from origin: String) async throws -> RawHTTP.Reply {
        try await RawHTTP(baseURL: server.url).send(StoreAPI.save, method: .OPTIONS, token: nil, headers: [
            ("Origin", origin), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "authorization, content-type, idempotency-key"),
        ])
    }

    func corsHeaders(_ reply: RawHTTP.Reply) -> [String] {
        reply.headers.map(\.name).filter { $0.lowercased().hasPrefix("access-control-") }
    }

    @Test func aPreflightFromAnAllowedOriginIsAnsweredWithTheAPIsMethodsAndHeaders() async throws {
        let server = try startServer(schema: notesSchema, directory: directory, allowedOrigins: [Self.allowed, "http://localhost:3000"])
        defer { server.stop() }
        let reply = try await preflight(server, from: Self.allowed)
        #expect(reply.status == 204)
        #expect(reply.headers["Access-Control-Allow-Origin"] == [Self.allowed])
        #expect(reply.headers["Access-Control-Allow-Methods"] == ["GET, POST"])
        #expect(reply.headers["Access-Control-Allow-Headers"] == ["Authorization, Content-Type, Accept, Idempotency-Key"])
        #expect(reply.headers["Access-Control-Max-Age"] == ["600"])
        #expect(reply.headers["Vary"] == ["Origin"])
    }

    @Test func aRequestFromAnAllowedOriginMayReadItsAnswer() async throws {
        let server = try startServer(schema: notesSchema, directory: directory, allowedOrigins: [Self.allowed])
        defer { server.stop() }
        let reply = try await RawHTTP(baseURL: server.url).send(StoreAPI.schema, method: .GET, headers: [("Origin", Self.allowed)])
        #expect(reply.status == 200)
        #expect(reply.headers["Access-Control-Allow-Origin"] == [Self.allowed])
        #expect(reply.headers["Access-Control-Expose-Headers"] == ["X-Request-ID, Retry-After"])
        #expect(reply.headers["Vary"] == ["Origin"])
    }

    @Test func anotherOriginGetsNoCORSHeaders() async throws {
        let server = try startServer(schema: notesSchema, directory: directory, allowedOrigins: [Self.allowed])
        defer { server.stop() }
        let preflight = try await preflight(server, from: "https://evil.example.com")
        #expect(preflight.status == 401)
        #expect(corsHeaders(preflight) == [])
        let request = try await RawHTTP(baseURL: server.url).send(StoreAPI.schema, method: .GET, headers: [("Origin", "https://app.example.com:8443")])
        #expect(request.status == 200)
        #expect(corsHeaders(request) == [])
        #expect(request.headers["Vary"] == ["Origin"])
    }

    @Test func withoutAllowedOriginsNoOriginGetsCORSHeaders() async throws {
        let server = try startServer(schema: notesSchema, directory: directory)
        defer { server.stop() }
        let preflight = try await preflight(server, from: Self.allowed)
        #expect(preflight.status == 401)
        #expect(corsHeaders(preflight) == [])
        let request = try await RawHTTP(baseURL: server.url).send(StoreAPI.schema, method: .GET, headers: [("Origin", Self.allowed)])
        #expect(corsHeaders(request) == [])
        #expect(request.headers["Vary"] == [])
    }

    @Test(arguments: ["https://app.example.com/", "app.example.com", "https://app.example.com/page", "*"])
    func anAllowedOriginThatIsNotAnOriginIsRefused(_ origin: String) throws {
        let error = #expect(throws: StoreServerError.self) {
            try startServer(schema: notesSchema, directory: directory, allowedOrigins: [origin])
        }
        #expect(error?.message == "The allowed origin '\(origin)' is not an origin; give the scheme, host and port the browser page is served from, such as https://app.example.com or http://localhost:3000, without a path or a trailing slash.")
    }
}
