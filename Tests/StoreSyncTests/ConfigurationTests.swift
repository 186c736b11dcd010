import Foundation
import OpenSwiftData
import StoreSync
import Testing

/// What the engine refuses, with errors that say what to do.
@Suite final class ConfigurationTests {
    let directory: URL

    init() throws {
        directory = try makeSyncDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func aSchemaVersionOtherThanTheServersIsAnErrorNamingBoth() async throws {
        let serverContainer = try ModelContainer(for: Schema(SyncTestSchema.models, version: Schema.Version(2, 1, 0)),
                                                 configurations: [ModelConfiguration(url: directory.appendingPathComponent("server.store"))])
        let server = try SyncServer(directory: directory, container: serverContainer)
        defer { server.stop() }
        let client = try SyncClient("a", server: server.url, directory: directory)
        let context = client.context()
        context.insert(SyncNote(uid: "n1", title: "T"))
        try context.save()

        let error = await #expect(throws: SyncError.self) { try await client.sync() }
        #expect(error?.code == .schemaVersionMismatch)
        #expect(error?.message.contains("2.1.0") == true)
        #expect(error?.message.contains("1.0.0") == true)
        #expect(try syncDump(serverContainer) == [])
    }

    @Test func aSyncedModelOutsideTheContainerIsRefused() throws {
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: directory.appendingPathComponent("a.store"))])
        let configuration = SyncConfiguration(server: URL(string: "http://127.0.0.1:1")!, token: syncToken, models: SyncTestSchema.models + [SyncStray.self])
        let error = #expect(throws: SyncError.self) { try SyncEngine(container: container, configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == "SyncStray is not in the container's schema; create the container with every synced model type.")
    }

    @Test func aRelationshipToAModelThatIsNotSyncedIsRefused() throws {
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: directory.appendingPathComponent("a.store"))])
        let configuration = SyncConfiguration(server: URL(string: "http://127.0.0.1:1")!, token: syncToken, models: [SyncNote.self, SyncLabel.self])
        let error = #expect(throws: SyncError.self) { try SyncEngine(container: container, configuration: configuration) }
        #expect(error?.message == "SyncNote.folder relates to SyncFolder, which is not among the synced models; add SyncFolder to SyncConfiguration.models.")
    }

    @Test func aWrongTokenIsUnauthorized() async throws {
        let server = try SyncServer(directory: directory)
        defer { server.stop() }
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: directory.appendingPathComponent("a.store"))])
        let engine = try SyncEngine(container: container, configuration: SyncConfiguration(server: server.url, token: "wrong", models: SyncTestSchema.models))
        let error = await #expect(throws: SyncError.self) { try await engine.sync() }
        #expect(error?.code == .unauthorized)
        #expect(error?.isRetryable == false)
    }

    @Test func aStoreWithoutAFileNeedsAStateLocation() throws {
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [InMemoryStoreConfiguration(schema: SyncTestSchema.schema)])
        let configuration = SyncConfiguration(server: URL(string: "http://127.0.0.1:1")!, token: syncToken, models: SyncTestSchema.models)
        let error = #expect(throws: SyncError.self) { try SyncEngine(container: container, configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
    }
}
