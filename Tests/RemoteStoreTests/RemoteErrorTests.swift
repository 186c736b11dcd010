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

    @Test func aRelationshipGraphAndCascadeRoundTrip() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let folder = Folder(title: "Work")
        context.insert(folder)
        folder.notes.append(Note(slug: "x", text: "x", rank: 1))
        folder.notes.append(Note(slug: "y", text: "y", rank: 2))
        try context.save()

        let other = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        let fetched = try other.fetch(FetchDescriptor<Folder>())
        #expect(fetched.map(\.title) == ["Work"])
        #expect(fetched.first?.notes.map(\.slug).sorted() == ["x", "y"])
        #expect(try other.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.folder?.title == "Work" })).count == 2)

        other.delete(fetched[0])
        try other.save()
        #expect(try other.fetchCount(FetchDescriptor<Note>()) == 0)
    }
}
