import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import StoreSync
import Testing

/// Relationship edits pushed from both sides of a many-to-many, on a SQLite server and on two
/// StoreServers over one PostgreSQL database (each client syncing through a server of its own):
/// every store converges on the edits the clients made.
@Suite final class ServerStoreSyncTests {
    enum ServerKind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, twoPostgresServers
        var testDescription: String { rawValue }
    }

    let directory: URL

    init() throws {
        directory = try makeSyncDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func servers(_ kind: ServerKind) throws -> (SyncServer, SyncServer) {
        switch kind {
        case .sqlite:
            let server = try SyncServer(directory: directory)
            return (server, server)
        case .twoPostgresServers:
            let database = try TestDatabase.makeDatabase("sync-servers")
            let make = {
                try SyncServer(directory: self.directory, container: ModelContainer(for: SyncTestSchema.schema, configurations: [
                    PostgresStoreConfiguration(schema: SyncTestSchema.schema, url: database),
                ]))
            }
            return (try make(), try make())
        }
    }

    /// Each store's dump, the clients' and the servers' alike.
    private func expectEveryStore(_ containers: [ModelContainer], holds expected: [String],
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        for container in containers {
            #expect(try syncDump(container) == expected, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func manyToManyEditsFromEitherSideConverge(_ kind: ServerKind) async throws {
        let (first, second) = try servers(kind)
        defer { first.stop(); second.stop() }
        let a = try SyncClient("a", server: first.url, directory: directory)
        let b = try SyncClient("b", server: second.url, directory: directory)

        let context = a.context()
        let folder = SyncFolder(name: "Work", color: 1)
        let note = SyncNote(uid: "n1", title: "Plan")
        context.insert(folder)
        context.insert(note)
        note.folder = folder
        try context.save()
        try await a.sync()
        try await b.sync()

        // b labels the note (from the note's side, with a new label) and edits its body while
        // a recolours the folder.
        let bContext = b.context()
        let bNote = try #require(try bContext.fetch(FetchDescriptor<SyncNote>()).first)
        bNote.body = "Agenda"
        let label = SyncLabel(name: "urgent")
        bContext.insert(label)
        bNote.labels = [label]
        bContext.insert(SyncNote(uid: "n2", title: "Review"))
        try bContext.save()
        let aFolder = try #require(try context.fetch(FetchDescriptor<SyncFolder>()).first)
        aFolder.color = 7
        try context.save()
        try await b.sync()
        try await a.sync()
        try await b.sync()

        let labelled = [
            "folder Work color=7 notes=[\"n1\"]",
            "label urgent notes=[\"n1\"]",
            "note n1 title=Plan body=Agenda rating=0.0 created=0.0 attachment=nil folder=Work labels=[\"urgent\"]",
            "note n2 title=Review body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]",
        ]
        try expectEveryStore([a.container, b.container, first.container, second.container], holds: labelled)

        // a edits the label, then the note, unlabelling it: the label's stored list must not put
        // the pair back, whichever side the server writes first.
        let aLabel = try #require(try context.fetch(FetchDescriptor<SyncLabel>()).first)
        aLabel.name = "later"
        try context.save()
        let aNote = try #require(try context.fetch(FetchDescriptor<SyncNote>(predicate: #Predicate { $0.uid == "n1" })).first)
        aNote.title = "Plan B"
        aNote.labels = []
        try context.save()
        try await a.sync()
        try await b.sync()

        let unlabelled = [
            "folder Work color=7 notes=[\"n1\"]",
            "label later notes=[]",
            "note n1 title=Plan B body=Agenda rating=0.0 created=0.0 attachment=nil folder=Work labels=[]",
            "note n2 title=Review body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]",
        ]
        try expectEveryStore([a.container, b.container, first.container, second.container], holds: unlabelled)
        #expect(a.engine.status.pendingChanges == 0)
        #expect(b.engine.status.pendingChanges == 0)
    }
}
