import Foundation
import NIOHTTP1
import OpenSwiftData
import StoreServer
import Testing
import Yams

/// The server answers as `Sources/StoreServer/openapi.yaml` says: each scenario's status is one
/// the document lists for that operation, and its body matches the schema documented for it.
@Suite final class OpenAPIDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/StoreServer/openapi.yaml")

    let document: [String: Any]
    let directory: URL
    let server: RunningStoreServer
    let http: RawHTTP

    init() throws {
        document = try #require(try Yams.load(yaml: String(contentsOf: Self.documentURL, encoding: .utf8)) as? [String: Any])
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory,
                                 tokens: [testToken: Set(StoreServerConfiguration.Scope.allCases), Self.readToken: [.read]])
        http = RawHTTP(baseURL: server.url)
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        context.insert(Note(slug: "a", text: "first", rank: 1))
        let nan = Note(slug: "b", text: "second", rank: 2)
        nan.score = .nan
        context.insert(nan)
        try context.save()
    }

    deinit { stopInBackground(server, removing: directory) }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPMethod
        let path: String
        var token: String? = testToken
        var headers: [(String, String)] = []
        /// The body, given the test's raw client (some need identifiers the server minted).
        var body: @Sendable (RawHTTP) async throws -> String? = { _ in nil }
        let status: Int

        var testDescription: String { "\(name) → \(status)" }
    }

    static let query = #"{"query":{"entityName":"Note","sortBy":[{"path":["rank"],"ascending":true,"kind":"integer"}]}}"#
    /// A token that may only read.
    static let readToken = "read-only-token"

    static let scenarios: [Scenario] = [
        Scenario(name: "health", method: .GET, path: "/v1/health", token: nil, status: 200),
        Scenario(name: "document", method: .GET, path: "/v1/openapi.yaml", token: nil, status: 200),
        Scenario(name: "metrics", method: .GET, path: "/metrics", status: 200),
        Scenario(name: "metrics without a token", method: .GET, path: "/metrics", token: nil, status: 401),
        Scenario(name: "schema", method: .GET, path: "/v1/schema", status: 200),
        Scenario(name: "schema without a token", method: .GET, path: "/v1/schema", token: nil, status: 401),
        Scenario(name: "fetch", method: .POST, path: "/v1/fetch", body: { _ in query }, status: 200),
        Scenario(name: "fetch without a token", method: .POST, path: "/v1/fetch", token: nil, body: { _ in query }, status: 401),
        Scenario(name: "fetch with broken JSON", method: .POST, path: "/v1/fetch", body: { _ in "{" }, status: 400),
        Scenario(name: "fetch of an unknown entity", method: .POST, path: "/v1/fetch",
                 body: { _ in #"{"query":{"entityName":"Ghost","sortBy":[]}}"# }, status: 404),
        Scenario(name: "fetch over the size limit", method: .POST, path: "/v1/fetch",
                 body: { _ in #"{"pad":"\#(String(repeating: "x", count: 2 << 20))"}"# }, status: 413),
        Scenario(name: "fetch filtering a NaN column", method: .POST, path: "/v1/fetch", body: { _ in
            #"{"query":{"entityName":"Note","sortBy":[],"filter":{"comparison":{"_0":{"property":{"_0":["score"]}},"_1":"greaterThan","_2":{"value":{"_0":{"double":1}}},"type":{"isOptional":false,"kind":"double"}}}}}"#
        }, status: 422),
        Scenario(name: "rows", method: .POST, path: "/v1/rows", body: { _ in query }, status: 200),
        Scenario(name: "rows with broken JSON", method: .POST, path: "/v1/rows", body: { _ in #"{"query":["#}, status: 400),
        Scenario(name: "rows of an unknown entity", method: .POST, path: "/v1/rows",
                 body: { _ in #"{"query":{"entityName":"Ghost","sortBy":[]}}"# }, status: 404),
        Scenario(name: "count", method: .POST, path: "/v1/count", body: { _ in query }, status: 200),
        Scenario(name: "count of an unknown property", method: .POST, path: "/v1/count",
                 body: { _ in #"{"query":{"entityName":"Note","sortBy":[],"filter":{"property":{"_0":["secret"]}}}}"# }, status: 400),
        Scenario(name: "identifiers", method: .POST, path: "/v1/identifiers", body: { _ in query }, status: 200),
        Scenario(name: "batch delete", method: .POST, path: "/v1/batch-delete", body: { _ in query }, status: 204),
        Scenario(name: "save", method: .POST, path: "/v1/save", headers: [("Idempotency-Key", "doc-1")],
                 body: { _ in SaveBodies.inserting(SaveBodies.note(slug: "c")) }, status: 200),
        Scenario(name: "save with a property the schema lacks", method: .POST, path: "/v1/save",
                 body: { _ in SaveBodies.inserting(SaveBodies.note(slug: "c", extra: #","x":1"#)) }, status: 400),
        Scenario(name: "save reusing a key", method: .POST, path: "/v1/save", headers: [("Idempotency-Key", "doc-2")], body: { http in
            _ = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "c")), headers: [("Idempotency-Key", "doc-2")])
            return SaveBodies.inserting(SaveBodies.note(slug: "d"))
        }, status: 422),
        Scenario(name: "save making two notes equal on a unique constraint", method: .POST, path: "/v1/save", body: { http in
            let reply = try await http.send("/v1/identifiers", json: query)
            guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: reply.body),
                  case .array(let identifiers) = object["identifiers"], identifiers.count == 2,
                  case .object(let second) = identifiers[1], case .object(let implementation) = second["implementation"],
                  case .integer(let key) = implementation["primaryKey"], case .string(let store) = implementation["storeIdentifier"] else {
                return nil
            }
            let identifier = #"{"implementation":{"entityName":"Note","isTemporary":false,"primaryKey":\#(key),"storeIdentifier":"\#(store)","uriRepresentation":"x-swiftdata://\#(store)/Note/\#(key)"}}"#
            return #"{"inserted":[],"deleted":[],"updated":[{"persistentIdentifier":\#(identifier),"slug":"a","text":"x","rank":2,"created":0,"score":0,"folder":null}]}"#
        }, status: 409),
        Scenario(name: "history", method: .POST, path: "/v1/history",
                 body: { _ in #"{"conditions":[{"transaction":{"comparison":"greaterThan","number":0}}],"tokens":[],"newestFirst":true,"limit":5}"# }, status: 200),
        Scenario(name: "history of an unknown entity", method: .POST, path: "/v1/history",
                 body: { _ in #"{"conditions":[{"changedEntities":["Ghost"]}],"tokens":[],"newestFirst":false}"# }, status: 404),
        Scenario(name: "history after an expired token", method: .POST, path: "/v1/history", body: { http in
            _ = try await http.send("/v1/history/delete", json: #"{"conditions":[{"transaction":{"comparison":"lessThanOrEqual","number":1}}],"tokens":[],"newestFirst":false}"#)
            let store = try await OpenAPIDocumentTests.storeIdentifier(http)
            return #"{"conditions":[],"tokens":[{"\#(store)":0}],"newestFirst":false}"#
        }, status: 410),
        Scenario(name: "history delete", method: .POST, path: "/v1/history/delete",
                 body: { _ in #"{"conditions":[{"author":{"equal":true,"author":"nobody"}}],"tokens":[],"newestFirst":false}"# }, status: 204),
        Scenario(name: "history events without a token", method: .GET, path: "/v1/history/events", token: nil, status: 401),
        Scenario(name: "save with a read-only token", method: .POST, path: "/v1/save", token: readToken,
                 body: { _ in #"{"inserted":[],"updated":[],"deleted":[]}"# }, status: 403),
        Scenario(name: "batch delete with a read-only token", method: .POST, path: "/v1/batch-delete", token: readToken,
                 body: { _ in query }, status: 403),
    ]

    /// The server store's identifier, from the history it answers.
    static func storeIdentifier(_ http: RawHTTP) async throws -> String {
        let reply = try await http.send("/v1/history", json: #"{"conditions":[],"tokens":[],"newestFirst":false}"#)
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: reply.body),
              case .string(let store) = object["storeIdentifier"] else { return "" }
        return store
    }

    @Test(arguments: scenarios)
    func theServerAnswersAsTheDocumentSays(_ scenario: Scenario) async throws {
        let body = try await scenario.body(http)
        let reply = try await http.send(scenario.path, method: scenario.method, body: body.map { Data($0.utf8) },
                                        token: scenario.token, headers: scenario.headers)
        #expect(reply.status == scenario.status)

        let validator = SchemaValidator(document: document)
        let operation = (document["paths"] as? [String: Any])?[scenario.path]
            .flatMap { ($0 as? [String: Any])?[scenario.method.rawValue.lowercased()] } as? [String: Any]
        var response = (operation?["responses"] as? [String: Any])?["\(reply.status)"] as? [String: Any]
        if let reference = response?["$ref"] as? String { response = validator.resolve(reference) }
        let documented = try #require(response, "\(scenario.method.rawValue) \(scenario.path) does not document status \(reply.status)")
        let content = documented["content"] as? [String: Any]
        if let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any] {
            let json = try JSONDecoder().decode(JSONValue.self, from: reply.body)
            #expect(validator.violations(of: json, against: schema) == [])
        } else if content?["application/yaml"] != nil {
            #expect(reply.headers.first(name: "Content-Type") == "application/yaml")
        } else if content?["text/plain"] != nil {
            #expect(reply.headers.first(name: "Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(String(decoding: reply.body, as: UTF8.self).contains("# TYPE openswiftdata_server_requests_total counter"))
        } else {
            #expect(reply.body.isEmpty)
        }
    }

    @Test func everyDocumentedOperationHasAScenario() throws {
        let paths = try #require(document["paths"] as? [String: Any])
        let documented = Set(paths.flatMap { path, operations in
            ((operations as? [String: Any]) ?? [:]).keys.map { "\($0.uppercased()) \(path)" }
        })
        #expect(documented == Set(Self.scenarios.map { "\($0.method.rawValue) \($0.path)" }))
    }

    @Test func theServedDocumentIsTheOneInTheRepository() async throws {
        let reply = try await http.send("/v1/openapi.yaml", method: .GET, token: nil)
        #expect(reply.body == (try Data(contentsOf: Self.documentURL)))
    }

    @Test func anUndocumentedPathGets404WithAJSONError() async throws {
        let reply = try await http.send("/v1/export", json: "{}")
        #expect(reply.status == 404)
        #expect(reply.errorCode == "notFound")
    }
}

@Suite struct SchemaValidatorTests {
    @Test func aBodyThatDoesNotMatchItsSchemaIsCaught() throws {
        let yaml = try String(contentsOf: OpenAPIDocumentTests.documentURL, encoding: .utf8)
        let validator = SchemaValidator(document: try #require(try Yams.load(yaml: yaml) as? [String: Any]))
        let schema = try #require(validator.resolve("#/components/schemas/SaveResponse"))
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"storeIdentifier":7,"remapped":[{"temporary":{}}]}"#.utf8))
        #expect(Set(validator.violations(of: json, against: schema)) == [
            "$.storeIdentifier: expected string, found 7",
            "$.remapped[0]: 'permanent' is required",
            "$.remapped[0].temporary: 'implementation' is required",
        ])
    }
}
