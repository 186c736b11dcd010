import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import StoreWire
import Testing

/// A save is applied once per idempotency key, also when the first answer was lost.
@Suite final class IdempotencyTests {
    let directory: URL
    var server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    private func count(_ http: RawHTTP) async throws -> String {
        String(decoding: try await http.send("/v1/count", json: #"{"query":{"entityName":"Note","sortBy":[]}}"#).body, as: UTF8.self)
    }

    @Test func aSaveSentTwiceWithOneKeyIsAppliedOnceAndAnsweredTheSame() async throws {
        let http = RawHTTP(baseURL: server.url)
        let body = SaveBodies.inserting(SaveBodies.note(slug: "a"), SaveBodies.note(slug: "b"))
        let first = try await http.send("/v1/save", json: body, headers: [("Idempotency-Key", "key-1")])
        let second = try await http.send("/v1/save", json: body, headers: [("Idempotency-Key", "key-1")])
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(first.headers.first(name: "Idempotent-Replayed") == nil)
        #expect(second.headers.first(name: "Idempotent-Replayed") == "true")
        #expect(second.body == first.body)
        let response = try WireCoding.decoder().decode(SaveResponse.self, from: first.body)
        #expect(response.remapped.map(\.temporary.entityName) == ["Note", "Note"])
        #expect(try await count(http) == #"{"count":2}"#)
    }

    @Test func aKeyReusedForAnotherSaveGets422AndAppliesNothing() async throws {
        let http = RawHTTP(baseURL: server.url)
        _ = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")), headers: [("Idempotency-Key", "key-2")])
        let reused = try await http.send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "b")), headers: [("Idempotency-Key", "key-2")])
        #expect(reused.status == 422)
        #expect(reused.errorCode == "idempotencyKeyReused")
        #expect(reused.errorMessage == "The idempotency key key-2 was used before for a different save; send each new save with a new key.")
        #expect(try await count(http) == #"{"count":1}"#)
    }

    @Test func aMalformedKeyGets400() async throws {
        let reply = try await RawHTTP(baseURL: server.url).send("/v1/save", json: SaveBodies.inserting(SaveBodies.note(slug: "a")),
                                                               headers: [("Idempotency-Key", "has space")])
        #expect(reply.status == 400)
        #expect(reply.errorMessage == "The Idempotency-Key header must be 1 to 128 letters, digits, '-', '_', '.' or ':' (a UUID works).")
    }

    @Test func aReceiptSurvivesARestartOfTheServer() async throws {
        let body = SaveBodies.inserting(SaveBodies.note(slug: "a"))
        let first = try await RawHTTP(baseURL: server.url).send("/v1/save", json: body, headers: [("Idempotency-Key", "key-3")])
        server.stop()
        server = try startServer(schema: notesSchema, directory: directory)
        let http = RawHTTP(baseURL: server.url)
        let retried = try await http.send("/v1/save", json: body, headers: [("Idempotency-Key", "key-3")])
        #expect(retried.headers.first(name: "Idempotent-Replayed") == "true")
        #expect(retried.body == first.body)
        #expect(try await count(http) == #"{"count":1}"#)
    }

    @Test func aSaveWhoseAnswerWasLostIsRetriedAndAppliedOnce() throws {
        let proxy = try RecordingProxy(upstream: server.url, stallFirstSave: .seconds(3))
        defer { proxy.stop() }
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url, timeout: .seconds(1)))
        let note = Note(slug: "once", text: "x", rank: 1)
        context.insert(note)
        try context.save()

        let saves = proxy.recorded.filter { $0.path == StoreAPI.save }
        #expect(saves.count == 2)
        #expect(saves[0].idempotencyKey != nil)
        #expect(saves[1].idempotencyKey == saves[0].idempotencyKey)
        #expect(saves.map(\.replayed) == [false, true])
        #expect(!context.hasChanges)
        let fresh = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let stored = try fresh.fetch(FetchDescriptor<Note>())
        #expect(stored.map(\.slug) == ["once"])
        #expect(stored.first?.persistentModelID == note.persistentModelID)
    }

    /// A save whose every answer was lost may have been applied: it says so, and saving the same
    /// changes again sends the same key, so the server applies them once (issue 46).
    @Test func aSaveWhoseEveryAnswerWasLostSaysItMayHaveBeenAppliedAndItsRepeatAppliesOnce() throws {
        let proxy = try RecordingProxy(upstream: server.url, stallFirstSave: .milliseconds(600), stallingSaves: 2)
        defer { proxy.stop() }
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url, timeout: .milliseconds(300), attempts: 2))
        context.insert(Note(slug: "maybe", text: "x", rank: 1))
        let error = #expect(throws: RemoteStoreError.self) { try context.save() }
        let key = try #require(proxy.recorded.first { $0.path == StoreAPI.save }?.idempotencyKey)
        #expect(error?.code == .outcomeUnknown)
        #expect(error?.message == "/v1/save was sent to the server at \(proxy.url.absoluteString), but no answer came back (no answer within 0.3 seconds; 2 attempts): it may have been applied. The changes are still pending; saving them again unchanged sends the same idempotency key (\(key)), so the server applies them at most once.")
        #expect(context.hasChanges)

        try context.save()
        let saves = proxy.recorded.filter { $0.path == StoreAPI.save }
        #expect(saves.map(\.idempotencyKey) == [key, key, key])
        #expect(saves.map(\.replayed) == [false, true, true])
        #expect(!context.hasChanges)
        let stored = try ModelContext(try remoteContainer(schema: notesSchema, url: server.url)).fetch(FetchDescriptor<Note>())
        #expect(stored.map(\.slug) == ["maybe"])
    }
}
