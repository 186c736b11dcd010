import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// A client outlives its server: a restarted server takes the next save, and a save while it is
/// down fails with the changes still pending.
@Suite final class RestartTests {
    let directory: URL
    var server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func aServerRestartedBetweenTwoSavesTakesTheSecond() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        context.insert(Note(slug: "before", text: "x", rank: 1))
        try context.save()

        let port = server.port
        server.stop()
        server = try startServer(schema: notesSchema, directory: directory, port: port)

        context.insert(Note(slug: "after", text: "y", rank: 2))
        try context.save()
        let slugs = try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)])).map(\.slug)
        #expect(slugs == ["before", "after"])
    }

    @Test func aSaveWhileTheServerIsDownFailsAndKeepsTheChangesPending() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url, timeout: .seconds(2), attempts: 2))
        let port = server.port
        server.stop()

        context.insert(Note(slug: "pending", text: "x", rank: 1))
        let error = #expect(throws: RemoteStoreError.self) { try context.save() }
        #expect(error?.code == .unreachable)
        #expect(error?.message.hasPrefix("The server at \(self.server.url.absoluteString) could not be reached for /v1/save (after 2 attempts)") == true)
        #expect(context.hasChanges)

        server = try startServer(schema: notesSchema, directory: directory, port: port)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try ModelContext(try remoteContainer(schema: notesSchema, url: server.url)).fetch(FetchDescriptor<Note>()).map(\.slug) == ["pending"])
    }
}
