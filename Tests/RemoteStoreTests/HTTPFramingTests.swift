// The calling-thread client is Linux's; elsewhere `http://` goes through async-http-client.
#if os(Linux)
import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// A RemoteStore reads every framing HTTP/1.1 allows, as a proxy in front of the server may
/// answer, keeps its connections alive, and names an answer that is not HTTP.
@Suite final class HTTPFramingTests {
    let directory: URL
    let server: RunningStoreServer
    static let longText = String(repeating: "a line of text ", count: 400)

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test(arguments: [ReframingProxy.Framing.chunked, .untilClose, .closeAfterEachAnswer])
    func answersInEveryFramingAreReadWhole(framing: ReframingProxy.Framing) throws {
        let proxy = try ReframingProxy(upstream: server.url, framing: framing)
        defer { proxy.stop() }
        let container = try remoteContainer(schema: notesSchema, url: proxy.url)
        let context = ModelContext(container)
        context.insert(Note(slug: "long", text: Self.longText, rank: 1))
        context.insert(Note(slug: "short", text: "short", rank: 2))
        try context.save()

        let notes = try ModelContext(container).fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)]))
        #expect(notes.map(\.slug) == ["long", "short"])
        #expect(notes.map(\.text) == [Self.longText, "short"])
    }

    @Test func oneStoreSendsItsRequestsInTurnOverOneConnection() throws {
        let proxy = try ReframingProxy(upstream: server.url, framing: .chunked)
        defer { proxy.stop() }
        let container = try remoteContainer(schema: notesSchema, url: proxy.url)
        for rank in 1...3 {
            let context = ModelContext(container)
            context.insert(Note(slug: "note-\(rank)", text: "text", rank: rank))
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == rank)
        }
        #expect(proxy.requests == 7)
        #expect(proxy.connections == 1)
    }

    @Test func aConnectionTheServerClosedWhileIdleIsReplacedWithoutAnError() throws {
        let proxy = try ReframingProxy(upstream: server.url, framing: .closeAfterEachAnswer)
        defer { proxy.stop() }
        let container = try remoteContainer(schema: notesSchema, url: proxy.url, attempts: 1)
        for rank in 1...3 {
            let context = ModelContext(container)
            context.insert(Note(slug: "note-\(rank)", text: "text", rank: rank))
            try context.save()
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 3)
        #expect(proxy.requests == 5)
        #expect(proxy.connections == 5)
    }

    @Test func anAnswerThatIsNotHTTPIsAnInvalidResponse() throws {
        let proxy = try ReframingProxy(upstream: server.url, framing: .garbage)
        defer { proxy.stop() }
        let container = try remoteContainer(schema: notesSchema, url: proxy.url, attempts: 1)
        let error = #expect(throws: RemoteStoreError.self) { try ModelContext(container).fetch(FetchDescriptor<Note>()) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("does not start with an HTTP/1.1 status line: SPDY/9 nonsense") == true)
    }

    @Test func aTokenWithALineBreakIsRefusedBeforeAnythingIsSent() throws {
        let proxy = try ReframingProxy(upstream: server.url, framing: .chunked)
        defer { proxy.stop() }
        let container = try remoteContainer(schema: notesSchema, url: proxy.url, token: "\(testToken)\nX-Injected: 1")
        let error = #expect(throws: RemoteStoreError.self) { try ModelContext(container).fetch(FetchDescriptor<Note>()) }
        #expect(error?.code == .invalidConfiguration)
        #expect(proxy.requests == 0)
    }
}
#endif
