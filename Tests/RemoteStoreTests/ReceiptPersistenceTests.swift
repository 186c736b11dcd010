import Foundation
import OpenSwiftData
import StoreServer
import Testing

/// Every store keeps its save receipts across a restart of the server, and a retry is known by
/// what it says, not by how its JSON is laid out.
@Suite struct ReceiptPersistenceTests {
    private func count(_ http: RawHTTP) async throws -> String {
        String(decoding: try await http.send("/v1/count", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#).body, as: UTF8.self)
    }

    @Test(arguments: ServedStoreKind.allCases)
    func aRetryAfterARestartIsReplayedNotAppliedAgain(store: ServedStoreKind) async throws {
        let directory = try makeDirectory()
        let body = SaveBodies.inserting(SaveBodies.note(slug: "a"))
        var server = try startServer(schema: notesSchema, directory: directory, store: store)
        let first = try await RawHTTP(baseURL: server.url).send("/v1/save", json: body, headers: [("Idempotency-Key", "restart-1")])
        server.stop()
        server = try startServer(schema: notesSchema, directory: directory, store: store)
        defer { stopInBackground(server, removing: directory) }
        let http = RawHTTP(baseURL: server.url)
        for _ in 0..<2 {
            let retried = try await http.send("/v1/save", json: body, headers: [("Idempotency-Key", "restart-1")])
            #expect(retried.status == 200)
            #expect(retried.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(retried.body == first.body)
        }
        #expect(try await count(http) == #"{"count":1}"#)
    }

    @Test(arguments: ServedStoreKind.allCases)
    func theSameSaveReformattedWithTheSameKeyIsReplayed(store: ServedStoreKind) async throws {
        let directory = try makeDirectory()
        let server = try startServer(schema: notesSchema, directory: directory, store: store)
        defer { stopInBackground(server, removing: directory) }
        let http = RawHTTP(baseURL: server.url)
        let compact = SaveBodies.inserting(SaveBodies.note(slug: "a"))
        let object = try JSONSerialization.jsonObject(with: Data(compact.utf8))
        let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
        let first = try await http.send("/v1/save", json: compact, headers: [("Idempotency-Key", "layout-1")])
        let again = try await http.send("/v1/save", body: pretty, headers: [("Idempotency-Key", "layout-1")])
        #expect(first.status == 200)
        #expect(again.status == 200)
        #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        #expect(try await count(http) == #"{"count":1}"#)
    }

    @Test func aJSONStoreServerLeavesNoTemporaryFilesBehind() async throws {
        let directory = try makeDirectory()
        let server = try startServer(schema: notesSchema, directory: directory, store: .json)
        defer { stopInBackground(server, removing: directory) }
        let http = RawHTTP(baseURL: server.url)
        _ = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")), headers: [("Idempotency-Key", "files-1")])
        _ = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "b")))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [".server.json.lock", ".server.json.receipts", "server.json"])
    }
}
