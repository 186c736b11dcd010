import Foundation
import OpenSwiftData
import StoreServer
import StoreWire
import Testing

/// Requests that once crashed a server or got a store-dependent answer: every store behind the
/// server answers them the same, with a 400 naming what is wrong, and keeps serving.
@Suite struct HostileInputTests {
    /// A server over `store` in a fresh directory, stopped after `body`.
    private func withServer(_ store: ServedStoreKind, _ body: (RawHTTP) async throws -> Void) async throws {
        let directory = try makeDirectory()
        let server = try startServer(schema: notesSchema, directory: directory, store: store)
        defer { stopInBackground(server, removing: directory) }
        try await body(RawHTTP(baseURL: server.url))
    }

    private func count(_ http: RawHTTP) async throws -> String {
        String(decoding: try await http.send("/v1/count", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#).body, as: UTF8.self)
    }

    private static func note(created: String, score: String = "0") -> String {
        #"{"persistentIdentifier":{"implementation":{"entityName":"Note","isTemporary":true,"primaryKey":"t-1","uriRepresentation":"x-swiftdata://temporary/Note/t-1"}},"slug":"a","text":"x","rank":1,"created":\#(created),"score":\#(score),"folder":null}"#
    }

    static let unstorableDates: [(json: String, seconds: String)] = [
        (#""nan""#, "nan"), (#""+infinity""#, "inf"), (#""-infinity""#, "-inf"), ("1e20", "1e+20"), ("1e308", "1e+308"), ("-1e12", "-1000000000000.0"),
    ]

    @Test(arguments: ServedStoreKind.allCases, unstorableDates)
    func aDateNoStoreKeepsGets400NamingTheFieldAndTheServerKeepsServing(store: ServedStoreKind, date: (json: String, seconds: String)) async throws {
        try await withServer(store) { http in
            let reply = try await http.send("/v1/save", json: SaveBodies.inserting(Self.note(created: date.json)), headers: [("Idempotency-Key", "k")])
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalidRequest")
            #expect(reply.errorMessage == "inserted[0] is refused: Note.created: \(date.seconds) seconds since 2001-01-01 is not a date a store keeps: dates must be finite and lie in the years 1 to 9999 (UTC). Nothing was saved.")
            #expect(try await http.send("/v1/health", method: .GET, token: nil).status == 200)
            #expect(try await count(http) == #"{"count":0}"#)
        }
    }

    @Test(arguments: ServedStoreKind.allCases, [#""nan""#, #""+infinity""#, #""-infinity""#])
    func aNonFiniteDoubleRoundTripsOnEveryStore(store: ServedStoreKind, score: String) async throws {
        try await withServer(store) { http in
            let saved = try await http.send("/v1/save", json: SaveBodies.inserting(Self.note(created: "0", score: score)))
            #expect(saved.status == 200)
            let fetched = try await http.send("/v1/fetch", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
            #expect(String(decoding: fetched.body, as: UTF8.self).contains(#""score":\#(score)"#))
        }
    }

    @Test(arguments: ServedStoreKind.allCases)
    func aRelationshipToAModelOfTheWrongEntityGets400NamingTheProperty(store: ServedStoreKind) async throws {
        try await withServer(store) { http in
            let other = SaveBodies.note(slug: "b")
            let pointing = SaveBodies.note(slug: "a").replacingOccurrences(of: #""folder":null"#, with:
                #""folder":{"implementation":{"entityName":"Note","isTemporary":true,"primaryKey":"t-b","uriRepresentation":"x-swiftdata://temporary/Note/t-b"}}"#)
            let reply = try await http.send("/v1/save", json: SaveBodies.inserting(other, pointing))
            #expect(reply.status == 400)
            #expect(reply.errorMessage == "inserted[1].folder refers to a Note, but Note.folder holds Folder models. Nothing was saved.")
            #expect(try await count(http) == #"{"count":0}"#)
        }
    }

    @Test(arguments: ServedStoreKind.allCases)
    func updatingAModelThatNoLongerExistsSaysSo(store: ServedStoreKind) async throws {
        try await withServer(store) { http in
            let inserted = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")))
            let permanent = try WireCoding.decoder().decode(SaveResponse.self, from: inserted.body).remapped[0].permanent
            let identifier = String(decoding: try WireCoding.encoder().encode(permanent), as: UTF8.self)
            let snapshot = #"{"persistentIdentifier":\#(identifier),"slug":"a","text":"y","rank":2,"created":0,"score":0,"folder":null}"#
            _ = try await http.send("/v1/save", json: #"{"inserted":[],"updated":[],"deleted":[\#(snapshot)]}"#)
            let reply = try await http.send("/v1/save", json: #"{"inserted":[],"updated":[\#(snapshot)],"deleted":[]}"#)
            #expect(reply.status == 400)
            #expect(reply.errorMessage == "updated[0] is a Note that does not exist in this store (it was deleted, or never saved here); fetch it again before changing it, or send it in 'inserted'. Nothing was saved.")
            #expect(try await count(http) == #"{"count":0}"#)
        }
    }

    @Test func aLowerCaseBearerSchemeIsAccepted() async throws {
        try await withServer(.sqlite) { http in
            let reply = try await http.send("/v1/count", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#, token: nil,
                                            headers: [("Authorization", "bearer \(testToken)")])
            #expect(reply.status == 200)
        }
    }

    @Test func aHugeHeaderGetsAJSONErrorBody() async throws {
        try await withServer(.sqlite) { http in
            let reply = try await http.send("/v1/health", method: .GET, token: nil, headers: [("X-Padding", String(repeating: "x", count: 200 * 1024))])
            #expect(reply.status == 431)
            #expect(reply.errorCode == "invalidRequest")
            #expect(reply.errorMessage == "The request's headers are larger than the server accepts (80 KiB); send a shorter token or fewer headers.")
        }
    }
}
