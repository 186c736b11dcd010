import Foundation
import JSONStore
import OpenSwiftData
import StoreSync
import Testing

/// The local container may use any store that keeps history: clients on JSONStore and
/// InMemoryStore sync with one on the default store.
@Suite final class LocalStoreKindsTests {
    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    @Test func jsonStoreAndInMemoryClientsConvergeWithASQLiteOne() async throws {
        let json = try ModelContainer(for: SyncTestSchema.schema, configurations: [JSONStoreConfiguration(
            name: "json", schema: SyncTestSchema.schema, url: directory.appendingPathComponent("local.json"), keepsHistory: true)])
        let memory = try ModelContainer(for: SyncTestSchema.schema, configurations: [InMemoryStoreConfiguration(schema: SyncTestSchema.schema)])
        let clients = [
            try SyncClient("sqlite", server: server.url, directory: directory),
            try SyncClient("json", server: server.url, directory: directory, container: json),
            try SyncClient("memory", server: server.url, directory: directory, configure: { $0.stateLocation = .inMemory }, container: memory),
        ]
        for (index, client) in clients.enumerated() {
            let context = client.context()
            let folder = SyncFolder(name: "F\(index)")
            let note = SyncNote(uid: "n\(index)", title: "From \(index)")
            context.insert(folder)
            context.insert(note)
            note.folder = folder
            note.labels = [SyncLabel(name: "shared")]
            try context.save()
        }
        for _ in 0..<2 {
            for client in clients { try await client.sync() }
        }
        let expected = try syncDump(server.container)
        #expect(expected.count == 7)
        for client in clients { #expect(try client.dump() == expected) }
    }
}
