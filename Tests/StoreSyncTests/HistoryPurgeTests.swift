import Foundation
import JSONStore
import OpenSwiftData
import StoreSync
import Testing

/// History purged before the engine read it (by the store's retention, or by the app's own
/// `deleteHistory`) loses no local change: the engine compares the synced models with what the
/// server last had from it and pushes the differences.
@Suite final class HistoryPurgeTests {
    /// A local store that keeps history, and how its history gets purged.
    enum LocalStore: String, CaseIterable, CustomStringConvertible {
        /// The default store, keeping one transaction.
        case sqliteRetention
        /// The default store, the app deleting its history.
        case sqliteDeleteHistory
        case json
        case memory

        var description: String { rawValue }

        func container(in directory: URL) throws -> ModelContainer {
            let schema = SyncTestSchema.schema
            switch self {
            case .sqliteRetention:
                var configuration = ModelConfiguration(url: directory.appendingPathComponent("local.store"))
                configuration.historyRetention = HistoryRetention(maximumTransactionCount: 1)
                return try ModelContainer(for: schema, configurations: [configuration])
            case .sqliteDeleteHistory:
                return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: directory.appendingPathComponent("local.store"))])
            case .json:
                return try ModelContainer(for: schema, configurations: [JSONStoreConfiguration(
                    name: "local", schema: schema, url: directory.appendingPathComponent("local.json"), keepsHistory: true)])
            case .memory:
                return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration(schema: schema)])
            }
        }

        /// What the app does to the history after its saves.
        func purge(_ context: ModelContext) throws {
            if self != .sqliteRetention { try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        }
    }

    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    private func note(_ uid: String, in context: ModelContext) throws -> SyncNote {
        try #require(try context.fetch(FetchDescriptor<SyncNote>(predicate: #Predicate { $0.uid == uid })).first)
    }

    private func folder(_ name: String, in context: ModelContext) throws -> SyncFolder {
        try #require(try context.fetch(FetchDescriptor<SyncFolder>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test(arguments: LocalStore.allCases)
    func changesWhoseHistoryWasPurgedBeforeAPushReachTheServer(_ store: LocalStore) async throws {
        let client = try SyncClient("local", server: server.url, directory: directory, container: try store.container(in: directory))
        let seed = client.context()
        let a = SyncFolder(name: "A")
        let b = SyncFolder(name: "B")
        let one = SyncNote(uid: "n1", title: "One")
        let two = SyncNote(uid: "n2", title: "Two")
        seed.insert(a)
        seed.insert(b)
        let three = SyncNote(uid: "n3", title: "Three")
        for model in [one, two, three] { seed.insert(model) }
        one.folder = a
        two.folder = a
        three.labels = [SyncLabel(name: "L")]
        try seed.save()
        try await client.sync()

        // Saved while the engine does not run, one transaction each, then the history goes.
        let context = client.context()
        try note("n1", in: context).title = "Edited"
        try context.save()
        try note("n1", in: context).folder = try folder("B", in: context)
        try context.save()
        try note("n3", in: context).labels = []
        try context.save()
        try folder("A", in: context).color = 3
        try context.save()
        context.delete(try note("n2", in: context))
        try context.save()
        let four = SyncNote(uid: "n4", title: "Four")
        context.insert(four)
        four.folder = try folder("B", in: context)
        try context.save()
        try store.purge(context)

        try await client.sync()
        let dump = try syncDump(server.container)
        #expect(dump == [
            "folder A color=3 notes=[]",
            "folder B color=0 notes=[\"n1\", \"n4\"]",
            "label L notes=[]",
            "note n1 title=Edited body=nil rating=0.0 created=0.0 attachment=nil folder=B labels=[]",
            "note n3 title=Three body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]",
            "note n4 title=Four body=nil rating=0.0 created=0.0 attachment=nil folder=B labels=[]",
        ])
        #expect(try client.dump() == dump)
        #expect(client.engine.status.pendingChanges == 0)
    }

    @Test func changesOtherClientsMadeSinceTheLastPullAreNotOverwritten() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory, container: try LocalStore.sqliteDeleteHistory.container(in: directory))
        let b = try SyncClient("b", server: server.url, directory: directory)
        let seed = a.context()
        seed.insert(SyncNote(uid: "n1", title: "One"))
        try seed.save()
        try await a.sync()
        try await b.sync()

        // a pulls b's first edit; b's second comes after a's last pull.
        let other = b.context()
        try note("n1", in: other).body = "First"
        try other.save()
        try await b.sync()
        try await a.sync()
        try note("n1", in: other).body = "Second"
        try note("n1", in: other).rating = 2
        try other.save()
        try await b.sync()

        let context = a.context()
        try note("n1", in: context).title = "Edited"
        try context.save()
        try LocalStore.sqliteDeleteHistory.purge(context)
        try await a.sync()
        try await b.sync()

        let expected = ["note n1 title=Edited body=Second rating=2.0 created=0.0 attachment=nil folder=nil labels=[]"]
        #expect(try syncDump(server.container) == expected)
        #expect(try a.dump() == expected)
        #expect(try b.dump() == expected)
    }
}
