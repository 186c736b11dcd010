import Foundation
import OpenSwiftData
import StoreSync
import Testing

/// Saves never wait for the network; what was saved offline goes up once the server is back, once.
@Suite final class OfflineTests {
    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    private func insertNotes(_ uids: [String], in client: SyncClient) throws {
        let context = client.context()
        for uid in uids { context.insert(SyncNote(uid: uid, title: "T")) }
        try context.save()
    }

    /// A client behind a proxy whose first push, of notes `uids`, reached the server and lost its
    /// answer; the caller stops the proxy.
    private func clientWhosePushLostItsAnswer(_ uids: [String]) async throws -> (SyncClient, DroppingProxy) {
        let proxy = try DroppingProxy(upstreamPort: server.running.port)
        let client = try SyncClient("a", server: proxy.url, directory: directory)
        try insertNotes(uids, in: client)
        proxy.drop(1, answersTo: "POST /v1/sync/push")
        await #expect(throws: SyncError.self) { try await client.sync() }
        #expect(try syncDump(server.container).count == uids.count)
        return (client, proxy)
    }

    @Test func savesMadeWhileTheServerIsUnreachableArePushedOnceItIsBack() async throws {
        let client = try SyncClient("a", server: server.url, directory: directory)
        let offline = try SyncWorld.Client.offlineEngine(client.container)
        try insertNotes(["n1", "n2", "n3"], in: client)

        let error = await #expect(throws: SyncError.self) { try await offline.sync() }
        #expect(error?.code == .offline)
        #expect(error?.isRetryable == true)
        #expect(offline.status.lastError?.code == .offline)
        #expect(offline.status.pendingChanges == 3)
        #expect(try syncDump(server.container) == [])

        try await client.sync()
        #expect(try syncDump(server.container) == client.dump())
        #expect(try syncDump(server.container).count == 3)
        #expect(client.engine.status.pendingChanges == 0)
    }

    @Test func tokensAndTheIdentityMapSurviveARestart() async throws {
        let client = try SyncClient("a", server: server.url, directory: directory)
        try insertNotes(["n1"], in: client)
        try await client.sync()

        try client.restart()
        let context = client.context()
        try #require(try context.fetch(FetchDescriptor<SyncNote>()).first).title = "Edited"
        try context.save()
        try await client.sync()

        #expect(try syncDump(server.container) == ["note n1 title=Edited body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"])
        #expect(try client.dump() == syncDump(server.container))
    }

    @Test func aPushWhoseAnswerWasLostIsAppliedOnceWhenRetried() async throws {
        let (client, proxy) = try await clientWhosePushLostItsAnswer(["n1", "n2"])
        defer { proxy.stop() }

        try insertNotes(["n3"], in: client)
        try await client.sync()
        #expect(try syncDump(server.container).map { $0.prefix(7) } == ["note n1", "note n2", "note n3"])
        #expect(try client.dump() == syncDump(server.container))
    }

    /// The engine reads the delete before it sends the unanswered push again (as `trips sync`
    /// does, counting what it will push): the insert reaches the server then, so the delete must
    /// follow it rather than be dropped as of a model the server never had.
    @Test(arguments: [true, false])
    func aModelDeletedBeforeItsLostInsertIsRetriedIsDeletedOnTheServer(countsPendingFirst: Bool) async throws {
        let (client, proxy) = try await clientWhosePushLostItsAnswer(["n1", "n2"])
        defer { proxy.stop() }

        let context = client.context()
        try context.delete(model: SyncNote.self, where: #Predicate { $0.uid == "n1" })
        try context.save()
        if countsPendingFirst { #expect(try await client.engine.refreshPendingChanges() == 2) }
        try await client.sync()
        try await client.sync()

        #expect(try syncDump(server.container).map { $0.prefix(7) } == ["note n2"])
        #expect(try client.dump() == syncDump(server.container))
        #expect(client.engine.status.pendingChanges == 0)
    }

    @Test func aPushLostByACrashIsSentAgainByTheNextProcess() async throws {
        let (client, proxy) = try await clientWhosePushLostItsAnswer(["n1"])
        defer { proxy.stop() }

        // The app restarts and edits the model before its first round.
        try client.restart()
        let context = client.context()
        try #require(try context.fetch(FetchDescriptor<SyncNote>()).first).title = "Later"
        try context.save()
        try await client.sync()

        #expect(try syncDump(server.container) == ["note n1 title=Later body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"])
    }

    @Test func modelsSavedBeforeTheEngineFirstRanAreSynced() async throws {
        let storeURL = directory.appendingPathComponent("early.store")
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: storeURL)])
        let context = ModelContext(container)
        context.insert(SyncFolder(name: "Before"))
        try context.save()

        let client = try SyncClient("early", server: server.url, directory: directory, container: container)
        try await client.sync()
        #expect(try syncDump(server.container) == ["folder Before color=0 notes=[]"])
    }

    @Test func changesLostWithExpiredLocalHistoryStillReachTheServer() async throws {
        let storeURL = directory.appendingPathComponent("short.store")
        var configuration = ModelConfiguration(url: storeURL)
        configuration.historyRetention = HistoryRetention(maximumTransactionCount: 2)
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [configuration])
        let client = try SyncClient("short", server: server.url, directory: directory, container: container)
        try insertNotes(["n0"], in: client)
        try await client.sync()

        // Saved while the engine is not running, past what the history keeps.
        let context = client.context()
        for index in 1...5 {
            context.insert(SyncNote(uid: "n\(index)", title: "T"))
            try context.save()
        }
        context.delete(try #require(try context.fetch(FetchDescriptor<SyncNote>(predicate: #Predicate { $0.uid == "n0" })).first))
        try context.save()

        try client.restart()
        try await client.sync()
        #expect(try syncDump(server.container).map { $0.prefix(7) } == ["note n1", "note n2", "note n3", "note n4", "note n5"])
        #expect(client.engine.status.lastError?.code == .localHistoryExpired)
    }
}
