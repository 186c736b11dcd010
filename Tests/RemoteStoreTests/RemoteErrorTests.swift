import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// Store errors on the server reach the caller typed, with the server's message, and a failed save
/// keeps the context's changes.
@Suite final class RemoteErrorTests {
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func aConstraintViolationIsAConflictAndSavesNothing() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let first = Note(slug: "a", text: "first", rank: 1)
        let second = Note(slug: "b", text: "second", rank: 2)
        context.insert(first)
        context.insert(second)
        try context.save()

        second.slug = "a"
        second.text = "changed"
        let error = #expect(throws: RemoteStoreError.self) { try context.save() }
        #expect(error?.code == .conflict)
        #expect(error?.status == 409)
        #expect(error?.serverCode == "uniqueConstraintViolation")
        #expect(context.hasChanges)
        let stored = try ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
            .fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)]))
        #expect(stored.map(\.slug) == ["a", "b"])
        #expect(stored.map(\.text) == ["first", "second"])
    }
}
