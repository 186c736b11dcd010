import Foundation
import OpenSwiftData
import StoreServer
import Testing

/// Each token does what its scopes allow and no more, and its idempotency keys are its own.
@Suite final class TokenScopeTests {
    typealias Scope = StoreServerConfiguration.Scope

    static let tokens: [String: Set<Scope>] = [
        "reader": [.read], "writer": [.write], "app": Scope.standard, "operator": Set(Scope.allCases),
    ]
    static let query = #"{"query":{"entityName":"Note","sortBy":[]}}"#
    static let history = #"{"conditions":[],"tokens":[],"newestFirst":false}"#

    let directory: URL
    let server: RunningStoreServer
    let http: RawHTTP

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory, tokens: Self.tokens)
        http = RawHTTP(baseURL: server.url)
    }

    deinit { stopInBackground(server, removing: directory) }

    /// Every route, the scope it needs, and a body it accepts.
    static let routes: [(path: String, scope: Scope, body: String)] = [
        ("/v1/fetch", .read, query), ("/v1/rows", .read, query), ("/v1/count", .read, query), ("/v1/identifiers", .read, query),
        ("/v1/history", .read, history),
        ("/v1/save", .write, SaveBodies.inserting()),
        ("/v1/batch-delete", .admin, query), ("/v1/history/delete", .admin, history),
    ]

    @Test(arguments: ["reader", "writer", "app", "operator"])
    func eachRouteAnswersOnlyTokensWithItsScope(token: String) async throws {
        for route in Self.routes {
            let reply = try await http.send(route.path, json: route.body, token: token)
            if Self.tokens[token]!.contains(route.scope) {
                #expect((200..<300).contains(reply.status), "\(token) \(route.path): \(reply.status) \(reply.errorMessage ?? "")")
            } else {
                #expect(reply.status == 403, "\(token) \(route.path)")
                #expect(reply.errorCode == "forbidden")
            }
        }
        for path in ["/v1/schema", "/metrics"] {
            let reply = try await http.send(path, method: .GET, token: token)
            #expect(reply.status == (Self.tokens[token]!.contains(.read) ? 200 : 403), "\(token) \(path)")
        }
    }

    @Test func aRefusalNamesTheScopeNeededAndTheTokensOwn() async throws {
        let reply = try await http.send("/v1/batch-delete", json: Self.query, token: "app")
        #expect(reply.errorMessage == "This request needs a token with the admin scope; this one has read, write. Ask the server's operator for a token that has it.")
    }

    @Test func aRefusedSaveChangesNothing() async throws {
        let refused = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")), token: "reader")
        #expect(refused.status == 403)
        let count = try await http.send("/v1/count", json: Self.query, token: "reader")
        #expect(String(decoding: count.body, as: UTF8.self) == #"{"count":0}"#)
    }

    @Test func anotherTokensIdempotencyKeyIsAKeyOfItsOwn() async throws {
        let saveA = SaveBodies.inserting(SaveBodies.note(slug: "a"))
        let first = try await http.send("/v1/save", json: saveA, token: "app", headers: [("Idempotency-Key", "shared-key")])
        // The same key and body from another token is a save of its own, not a replay of the first.
        let replayedByOther = try await http.send("/v1/save", json: saveA, token: "operator", headers: [("Idempotency-Key", "shared-key")])
        // And the same key with another body is no reuse of the first token's key.
        let other = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "b")), token: "writer",
                                        headers: [("Idempotency-Key", "shared-key")])
        let retried = try await http.send("/v1/save", json: saveA, token: "app", headers: [("Idempotency-Key", "shared-key")])
        let statuses: [Int] = [first.status, replayedByOther.status, other.status, retried.status]
        #expect(statuses == [200, 200, 200, 200])
        #expect(replayedByOther.headers.first(name: "Idempotent-Replayed") == nil)
        #expect(retried.headers.first(name: "Idempotent-Replayed") == "true")
        #expect(retried.body == first.body)
        let count = try await http.send("/v1/count", json: Self.query, token: "reader")
        #expect(String(decoding: count.body, as: UTF8.self) == #"{"count":2}"#)
    }

    @Test func tokensGivenAsASetMayReadAndSave() throws {
        let configuration = try StoreServerConfiguration(tokens: ["s3cret"])
        let expected: [String: Set<Scope>] = ["s3cret": [.read, .write]]
        #expect(configuration.tokens == expected)
    }

    @Test func aTokenWithoutAScopeIsRefused() {
        let error = #expect(throws: StoreServerError.self) { try StoreServerConfiguration(tokens: ["idle": []]) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == "Every bearer token needs at least one scope (read, write or admin); remove a token that should do nothing.")
    }
}
