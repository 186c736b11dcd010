import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import StoreWire
import Testing

/// Fetches send the translated query, and the server's store runs it.
@Suite final class QueryForwardingTests {
    let directory: URL
    let server: RunningStoreServer
    let proxy: RecordingProxy

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
        proxy = try RecordingProxy(upstream: server.url)
        let seed = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        for rank in 0..<20 { seed.insert(Note(slug: "n\(rank)", text: rank.isMultiple(of: 2) ? "even" : "odd", rank: rank)) }
        try seed.save()
    }

    deinit {
        proxy.stop()
        stopInBackground(server, removing: directory)
    }

    private func sentQueries(_ path: String) throws -> [DataStoreQuery] {
        try proxy.recorded.filter { $0.path == path }.map { try WireCoding.decoder().decode(QueryRequest.self, from: $0.body).query }
    }

    @Test func aFetchSendsItsFilterSortAndPaging() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url))
        var descriptor = FetchDescriptor<Note>(predicate: #Predicate { $0.rank > 5 && $0.text == "even" },
                                               sortBy: [SortDescriptor(\.rank, order: .reverse)])
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.rank) == [16, 14, 12])

        let sent = try sentQueries(StoreAPI.rows)
        #expect(sent.count == 1)
        #expect(sent.first?.entityName == "Note")
        #expect(sent.first?.filter != nil)
        #expect(sent.first?.sortBy == [QuerySortKey(path: ["rank"], ascending: false, kind: .integer)])
        #expect(sent.first?.fetchLimit == 3)
        #expect(sent.first?.fetchOffset == 1)
        #expect(proxy.recorded.allSatisfy { $0.status == 200 })
    }

    @Test func countsAndIdentifiersRunOnTheServer() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url))
        #expect(try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate { $0.text == "odd" })) == 10)
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Note>(predicate: #Predicate { $0.rank < 3 }, sortBy: [SortDescriptor(\.rank)]))
        #expect(identifiers.count == 3)
        #expect(try sentQueries(StoreAPI.count).count == 1)
        #expect(try sentQueries(StoreAPI.identifiers).map(\.filter).allSatisfy { $0 != nil })
    }

    @Test func aBatchDeleteRunsOnTheServer() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url))
        try context.delete(model: Note.self, where: #Predicate { $0.rank >= 10 })
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 10)
        #expect(try sentQueries(StoreAPI.batchDelete).count == 1)
    }

    @Test func aFilterTheServersStoreCannotRunIsDoneByTheContext() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url))
        for note in try context.fetch(FetchDescriptor<Note>()) { note.score = note.rank == 0 ? .nan : Double(note.rank * 10) }
        try context.save()

        let popular = try ModelContext(try remoteContainer(schema: notesSchema, url: proxy.url)).fetch(FetchDescriptor<Note>(
            predicate: #Predicate { $0.score > 150 }, sortBy: [SortDescriptor(\.rank)]))
        #expect(popular.map(\.rank) == [16, 17, 18, 19])
        let fetches = proxy.recorded.filter { $0.path == StoreAPI.rows }
        #expect(fetches.suffix(2).map(\.status) == [422, 200])
    }
}
