import Foundation
import OpenSwiftData
import StoreServer
import Testing

/// A failure of the server's own tells the client its code and a request id to quote, never the
/// store's paths or internals, which go to the server's log.
@Suite final class ServerFailureTests {
    let directory: URL
    let server: RunningStoreServer
    let http: RawHTTP

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory, store: .json)
        http = RawHTTP(baseURL: server.url)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func aDamagedStoreAnswers500WithARequestIdAndNoPath() async throws {
        _ = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")))
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("server.json"))
        let reply = try await http.send("/v1/fetch", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
        #expect(reply.status == 500)
        let id = try #require(reply.headers.first(name: "X-Request-ID"))
        let code = try #require(reply.errorCode)
        #expect(reply.errorMessage == "The server failed on this request (\(code)). Its log has the details under request id \(id); retrying may not help.")
        #expect(!String(decoding: reply.body, as: UTF8.self).contains(directory.path))
    }
}
