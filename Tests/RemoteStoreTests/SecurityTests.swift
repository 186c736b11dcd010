import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// What the server refuses, and how: a status and a JSON error body that says what is wrong.
@Suite final class SecurityTests {
    let directory: URL
    let server: RunningStoreServer
    let http: RawHTTP

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory, maxBodySize: 64 * 1024, maxJSONDepth: 32)
        http = RawHTTP(baseURL: server.url)
    }

    deinit { stopInBackground(server, removing: directory) }

    static let fetchNotes = #"{"query":{"entityName":"Note","sortBy":[]}}"#

    @Test func aRequestWithoutATokenGets401() async throws {
        let reply = try await http.send("/v1/fetch", json: Self.fetchNotes, token: nil)
        #expect(reply.status == 401)
        #expect(reply.errorCode == "unauthorized")
        #expect(reply.errorMessage == "This server needs a bearer token: send 'Authorization: Bearer <token>'.")
    }

    @Test func aWrongTokenReachesTheCallerAsUnauthorized() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url, token: "not-the-token"))
        let error = #expect(throws: RemoteStoreError.self) { try context.fetch(FetchDescriptor<Note>()) }
        #expect(error?.code == .unauthorized)
        #expect(error?.status == 401)
        #expect(error?.message == "The server refused /v1/rows: The bearer token is not one this server accepts; check the token the server was started with.")
    }

    @Test func theHealthCheckNeedsNoToken() async throws {
        let reply = try await http.send("/v1/health", method: .GET, token: nil)
        #expect(reply.status == 200)
        #expect(String(decoding: reply.body, as: UTF8.self) == #"{"status":"ok"}"#)
    }

    @Test func aBodyOverTheSizeLimitGets413() async throws {
        let padding = String(repeating: "x", count: 70 * 1024)
        let reply = try await http.send("/v1/fetch", json: #"{"query":{"entityName":"Note","sortBy":[]},"pad":"\#(padding)"}"#)
        #expect(reply.status == 413)
        #expect(reply.errorCode == "payloadTooLarge")
    }

    @Test func anOversizedSaveFailsAndKeepsTheChangesPending() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        context.insert(Note(slug: "big", text: String(repeating: "x", count: 70 * 1024), rank: 1))
        let error = #expect(throws: RemoteStoreError.self) { try context.save() }
        #expect(error?.code == .payloadTooLarge)
        #expect(context.hasChanges)
        #expect(try ModelContext(try remoteContainer(schema: notesSchema, url: server.url)).fetchCount(FetchDescriptor<Note>()) == 0)
    }

    @Test func malformedJSONGets400() async throws {
        let reply = try await http.send("/v1/fetch", json: #"{"query": {"entityName": "Note", "#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalidRequest")
        #expect(reply.errorMessage == "The request body is not valid JSON: Unexpected end of file during JSON parse.")
    }

    @Test func aSyntaxErrorIsLocated() async throws {
        let reply = try await http.send("/v1/fetch", json: #"{"query": x}"#)
        #expect(reply.errorMessage == "The request body is not valid JSON: Invalid value around character 10.")
    }

    @Test func aBodyOfTheWrongShapeGets400NamingWhatIsMissing() async throws {
        let reply = try await http.send("/v1/fetch", json: #"{"query":{"entityName":"Note"}}"#)
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "The request body is not what this endpoint expects: 'sortBy' is missing at query. See the API document at /v1/openapi.yaml.")
    }

    @Test func jsonNestedDeeperThanTheLimitGets400() async throws {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let reply = try await http.send("/v1/fetch", json: #"{"query":\#(deep)}"#)
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "The request body nests objects and arrays deeper than 32 levels; simplify the query.")
    }

    @Test func anUnknownEntityGets404() async throws {
        let reply = try await http.send("/v1/count", json: #"{"query":{"entityName":"Secrets","sortBy":[]}}"#)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "notFound")
        #expect(reply.errorMessage == "The server's schema has no entity 'Secrets' (it serves Folder, Note).")
    }

    @Test(arguments: [
        (#"{"entityName":"Note","sortBy":[{"path":["password"],"ascending":true,"kind":"string"}]}"#,
         "The query names 'password', but Note has no property 'password' (its properties: created, folder, rank, score, slug, text)."),
        (#"{"entityName":"Note","sortBy":[],"filter":{"property":{"_0":["slug\" OR 1=1 --"]}}}"#,
         "The query names 'slug\" OR 1=1 --', but Note has no property 'slug\" OR 1=1 --' (its properties: created, folder, rank, score, slug, text)."),
        (#"{"entityName":"Note","sortBy":[],"filter":{"property":{"_0":["folder","owner"]}}}"#,
         "The query names 'folder.owner', but Folder has no property 'owner' (its properties: notes, title)."),
        (#"{"entityName":"Note","sortBy":[],"filter":{"property":{"_0":["slug","length"]}}}"#,
         "The query follows 'slug.length', but Note.slug is an attribute, not a relationship."),
        (#"{"entityName":"Note","sortBy":[],"filter":{"elementProperty":{"_0":3,"_1":["title"]}}}"#,
         "The query uses collection element 3 outside the contains/allSatisfy that binds it."),
        (#"{"entityName":"Note","sortBy":[],"fetchLimit":-1}"#, "fetchLimit must not be negative (got -1)."),
    ])
    func aQueryMayNameOnlyTheSchemasProperties(query: String, message: String) async throws {
        let reply = try await http.send("/v1/fetch", json: #"{"query":\#(query)}"#)
        #expect(reply.status == 400)
        #expect(reply.errorMessage == message)
    }

    @Test func aSavedSnapshotWithAPropertyTheServerLacksGets400AndSavesNothing() async throws {
        let body = #"{"inserted":[\#(SaveBodies.note(slug: "a", extra: #","isAdmin":true"#))],"updated":[],"deleted":[]}"#
        let reply = try await http.send("/v1/save", json: body)
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "inserted[0] is a Note with a property 'isAdmin' the server's schema does not have (its properties: created, folder, rank, score, slug, text); update the server's models.")
        let count = try await http.send("/v1/count", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#)
        #expect(String(decoding: count.body, as: UTF8.self) == #"{"count":0}"#)
    }

    @Test func aValueThatLooksLikeSQLIsOnlyEverAValue() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        context.insert(Note(slug: "a", text: "x", rank: 1))
        try context.save()
        let hostile = "a' OR '1'='1'; DROP TABLE \"Note\"; --"
        #expect(try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.slug == hostile })).isEmpty)
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 1)
    }
}

/// Hand-written save bodies, for what RemoteStore itself never sends.
enum SaveBodies {
    static func note(slug: String, rank: Int = 1, extra: String = "") -> String {
        #"{"persistentIdentifier":{"implementation":{"entityName":"Note","isTemporary":true,"primaryKey":"t-\#(slug)","uriRepresentation":"x-swiftdata://temporary/Note/t-\#(slug)"}},"slug":"\#(slug)","text":"x","rank":\#(rank),"created":0,"folder":null\#(extra)}"#
    }

    static func inserting(_ snapshots: String...) -> String {
        #"{"inserted":[\#(snapshots.joined(separator: ","))],"updated":[],"deleted":[]}"#
    }
}
