import Foundation
import OpenSwiftData
import StoreSync
import Synchronization
import Testing

/// A resolver decides the conflicts a push meets instead of the defaults.
@Suite final class ConflictTests {
    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    /// Two synced clients holding one note, `a` with `resolver`.
    private func clients(resolver: @escaping SyncResolver) async throws -> (SyncClient, SyncClient) {
        let a = try SyncClient("a", server: server.url, directory: directory) { $0.resolver = resolver }
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = b.context()
        context.insert(SyncNote(uid: "n1", title: "Draft"))
        try context.save()
        try await b.sync()
        try await a.sync()
        return (a, b)
    }

    private func note(_ client: SyncClient, _ context: ModelContext) throws -> SyncNote {
        try #require(try context.fetch(FetchDescriptor<SyncNote>()).first)
    }

    @Test func aResolverThatKeepsTheServersValueSeesBothValues() async throws {
        let seen = Mutex<[String]>([])
        let (a, b) = try await clients { conflict in
            seen.withLock { $0.append("\(conflict.kind) \(conflict.entityName).\(conflict.property ?? "-") local=\(conflict.localValue ?? "nil") server=\(conflict.serverValue ?? "nil")") }
            return .keepServer
        }
        let contextB = b.context()
        try note(b, contextB).title = "From B"
        try contextB.save()
        try await b.sync()
        let contextA = a.context()
        try note(a, contextA).title = "From A"
        try contextA.save()

        try await a.sync()

        #expect(seen.withLock { $0 } == ["updateUpdate SyncNote.title local=From A server=From B"])
        let expected = ["note n1 title=From B body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"]
        #expect(try a.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }

    @Test func aResolverThatKeepsLocalInsertsAgainAModelAnotherClientDeleted() async throws {
        let (a, b) = try await clients { _ in .keepLocal }
        let contextB = b.context()
        contextB.delete(try note(b, contextB))
        try contextB.save()
        try await b.sync()
        let contextA = a.context()
        try note(a, contextA).title = "Still needed"
        try contextA.save()

        try await a.sync()
        try await b.sync()

        let expected = ["note n1 title=Still needed body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"]
        #expect(try a.dump() == expected)
        #expect(try b.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }

    @Test func aResolverThatKeepsTheServersModelUndoesALocalDelete() async throws {
        let (a, b) = try await clients { _ in .keepServer }
        let contextB = b.context()
        try note(b, contextB).title = "Changed"
        try contextB.save()
        try await b.sync()
        let contextA = a.context()
        contextA.delete(try note(a, contextA))
        try contextA.save()

        try await a.sync()

        let expected = ["note n1 title=Changed body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"]
        #expect(try a.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }

    @Test func withoutAResolverTheModelAnotherClientDeletedStaysDeleted() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = b.context()
        context.insert(SyncNote(uid: "n1", title: "Draft"))
        try context.save()
        try await b.sync()
        try await a.sync()
        context.delete(try note(b, context))
        try context.save()
        try await b.sync()
        let contextA = a.context()
        try note(a, contextA).title = "Too late"
        try contextA.save()

        try await a.sync()

        #expect(try a.dump() == [])
        #expect(try syncDump(server.container) == [])
    }
}
