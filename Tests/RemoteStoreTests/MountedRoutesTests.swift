import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OpenSwiftData
import StoreServer
import Testing

/// The store's routes mounted on an application's own Hummingbird router, driven by
/// Hummingbird's test client, and the request metrics they serve at `/metrics`.
@Suite struct MountedRoutesTests {
    let directory: URL
    let server: StoreServer

    init() throws {
        directory = try makeDirectory()
        let container = try ModelContainer(for: notesSchema, configurations: [
            ModelConfiguration(schema: notesSchema, url: directory.appendingPathComponent("mounted.store")),
        ])
        server = try StoreServer(container: container, configuration: try StoreServerConfiguration(tokens: [testToken]), logger: quietLogger)
    }

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.get("/") { _, _ in "the app's own page" }
        server.addRoutes(to: router, atPath: "/data")
        return Application(router: router, logger: quietLogger)
    }

    static let bearer: HTTPFields = [.authorization: "Bearer \(testToken)", .contentType: "application/json"]

    @Test func theStoreAnswersUnderThePrefixBesideTheAppsOwnRoutes() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body) == "the app's own page")
            }
            try await client.execute(uri: "/data/v1/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Request-ID")!]?.isEmpty == false)
            }
            try await client.execute(uri: "/data/v1/save", method: .post, headers: Self.bearer,
                                     body: ByteBuffer(string: SaveBodies.inserting(SaveBodies.note(slug: "a"), SaveBodies.note(slug: "b")))) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/data/v1/count", method: .post, headers: Self.bearer,
                                     body: ByteBuffer(string: #"{"query":{"entityName":"Note","sortBy":[]}}"#)) { response in
                #expect(String(buffer: response.body) == #"{"count":2}"#)
            }
            try await client.execute(uri: "/data/v1/fetch", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: SecurityTests.fetchNotes)) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test func metricsCountTheRequestsMadeAndNeedTheToken() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await application().test(.router) { client in
            for _ in 0..<3 {
                try await client.execute(uri: "/data/v1/fetch", method: .post, headers: Self.bearer,
                                         body: ByteBuffer(string: SecurityTests.fetchNotes)) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/data/v1/save", method: .post, headers: Self.bearer,
                                     body: ByteBuffer(string: SaveBodies.inserting(SaveBodies.note(slug: "a")))) { #expect($0.status == .ok) }
            try await client.execute(uri: "/data/v1/save", method: .post, headers: Self.bearer,
                                     body: ByteBuffer(string: "{")) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/data/metrics", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/data/metrics", method: .get, headers: Self.bearer) { response in
                #expect(response.status == .ok)
                let lines = Set(String(buffer: response.body).split(separator: "\n").map(String.init))
                #expect(lines.contains(#"openswiftdata_server_requests_total{route="/v1/fetch"} 3"#))
                #expect(lines.contains(#"openswiftdata_server_requests_total{route="/v1/save"} 2"#))
                #expect(lines.contains(#"openswiftdata_server_request_errors_total{route="/v1/save"} 1"#))
                #expect(lines.contains(#"openswiftdata_server_request_errors_total{route="/v1/fetch"} 0"#))
                #expect(lines.contains(#"openswiftdata_server_request_duration_count{route="/v1/fetch"} 3"#))
            }
        }
    }

    @Test func theResponderForOtherFrameworksAnswersAsTheRoutesDo() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let api = server.responder()
        func request(_ method: HTTPRequest.Method, _ path: String, _ fields: HTTPFields = [:]) -> HTTPRequest {
            HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: fields)
        }
        let (health, healthBody) = await api.respond(to: request(.get, "/v1/health"), body: ByteBuffer(), logger: quietLogger)
        #expect(health.status == .ok)
        #expect(String(buffer: healthBody) == #"{"status":"ok"}"#)
        let query = ByteBuffer(string: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
        let (refused, _) = await api.respond(to: request(.post, "/v1/count"), body: query, logger: quietLogger)
        #expect(refused.status == .unauthorized)
        let (counted, countBody) = await api.respond(to: request(.post, "/v1/count", Self.bearer), body: query, logger: quietLogger)
        #expect(counted.status == .ok)
        #expect(String(buffer: countBody) == #"{"count":0}"#)
    }
}
