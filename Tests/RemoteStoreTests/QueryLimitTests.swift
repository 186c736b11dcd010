import Foundation
import OpenSwiftData
import StoreServer
import StoreWire
import Testing

/// The work one query may ask for is bounded before it is decoded, so a huge query gets a clear
/// 400 instead of holding the server's threads past the time limit.
@Suite final class QueryLimitTests {
    let directory: URL
    let server: RunningStoreServer
    let http: RawHTTP

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory, maxBodySize: 16 << 20, maxJSONDepth: 128)
        http = RawHTTP(baseURL: server.url)
    }

    deinit { stopInBackground(server, removing: directory) }

    private func countBody(ranks: [Int64]) throws -> String {
        let query = DataStoreQuery(entityName: "Note", filter: .in(.property(["rank"]), ranks.map(QueryValue.integer), type: QueryValueType(.integer)))
        return String(decoding: try WireCoding.encoder().encode(QueryRequest(query: query)), as: UTF8.self)
    }

    @Test func anInListAtTheLimitIsAnswered() async throws {
        let reply = try await http.send("/v1/count", json: try countBody(ranks: Array(0..<10_000)))
        #expect(reply.status == 200)
        #expect(String(decoding: reply.body, as: UTF8.self) == #"{"count":0}"#)
    }

    @Test func anInListOverTheLimitGets400() async throws {
        let reply = try await http.send("/v1/count", json: try countBody(ranks: Array(0..<850_000)))
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalidRequest")
        #expect(reply.errorMessage == "A list in the query holds more than 10000 values; split the query into several, each with a shorter list.")
    }

    @Test func aFilterOfTooManyExpressionsGets400() async throws {
        let test = QueryExpression.comparison(.property(["rank"]), .equal, .value(.integer(1)), type: QueryValueType(.integer))
        // A balanced tree of 2^15 comparisons: within the depth limit, over the node limit.
        func tree(_ depth: Int) -> QueryExpression { depth == 0 ? test : .or(tree(depth - 1), tree(depth - 1)) }
        let body = try WireCoding.encoder().encode(QueryRequest(query: DataStoreQuery(entityName: "Note", filter: tree(15))))
        let reply = try await http.send("/v1/count", body: body)
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "The query holds more than 50000 expressions and values; split it into several queries, or filter on fewer values.")
    }
}
