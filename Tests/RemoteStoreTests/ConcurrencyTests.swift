import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// Synchronous calls from any thread or task, and several clients at once.
@Suite final class ConcurrencyTests {
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func twoClientsSavingConcurrentlyBothLand() throws {
        let url = server.url
        let group = DispatchGroup()
        let failures = Failures()
        for client in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let context = ModelContext(try remoteContainer(schema: notesSchema, url: url))
                    for batch in 0..<5 {
                        for index in 0..<5 {
                            context.insert(Note(slug: "c\(client)-\(batch)-\(index)", text: "x", rank: client * 100 + batch * 5 + index))
                        }
                        try context.save()
                    }
                } catch {
                    failures.add(error)
                }
            }
        }
        group.wait()
        #expect(failures.all.isEmpty)
        let notes = try ModelContext(try remoteContainer(schema: notesSchema, url: url)).fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)]))
        #expect(notes.count == 50)
        #expect(Set(notes.map(\.persistentModelID)).count == 50)
        #expect(notes.map(\.rank) == Array(0..<25) + Array(100..<125))
    }

    /// More blocked callers than the machine has cooperative threads: the server runs on its own
    /// threads, so every call still gets its answer.
    @Test func manyTasksCallingAtOnceAllGetAnswers() async throws {
        let url = server.url
        let seed = ModelContext(try remoteContainer(schema: notesSchema, url: url))
        for index in 0..<10 { seed.insert(Note(slug: "n\(index)", text: "x", rank: index)) }
        try seed.save()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try ModelContext(try remoteContainer(schema: notesSchema, url: url)).fetchCount(FetchDescriptor<Note>())
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 10, count: 16))
    }

    @Test @MainActor func callsFromTheMainActorWork() throws {
        let context = ModelContext(try remoteContainer(schema: notesSchema, url: server.url))
        context.insert(Note(slug: "main", text: "x", rank: 1))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Note>()).map(\.slug) == ["main"])
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func add(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
