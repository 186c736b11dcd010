import Foundation
import Logging
import OpenSwiftData
import StoreServer
import StoreSync

let syncToken = "sync-test-token"

/// A temporary directory, removed by `remove()`.
func makeSyncDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A StoreServer over a store of the test models, in this process, on a free loopback port.
final class SyncServer: @unchecked Sendable {
    let container: ModelContainer
    private(set) var running: RunningStoreServer
    private let server: StoreServer

    /// A server over `container` (by default a new SQLite store in `directory`).
    init(directory: URL, container: ModelContainer? = nil) throws {
        self.container = try container ?? ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: directory.appendingPathComponent("server.store"))])
        var logger = Logger(label: "store-sync-tests")
        logger.logLevel = .critical
        server = try StoreServer(container: self.container, configuration: try StoreServerConfiguration(port: 0, tokens: [syncToken]), logger: logger)
        running = try server.start()
    }

    var url: URL { running.url }

    func stop() {
        running.stop()
    }
}

/// A temporary directory with a server whose store is in it, both gone when it is released.
final class SyncFixture {
    let directory: URL
    let server: SyncServer

    init() throws {
        directory = try makeSyncDirectory()
        server = try SyncServer(directory: directory)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A sync client: a local SQLite store of the test models and an engine syncing it.
final class SyncClient: @unchecked Sendable {
    let storeURL: URL
    let container: ModelContainer
    private(set) var engine: SyncEngine
    private let makeEngine: () throws -> SyncEngine

    init(_ name: String, server: URL, directory: URL, configure: @escaping (inout SyncConfiguration) -> Void = { _ in },
         container: ModelContainer? = nil) throws {
        storeURL = directory.appendingPathComponent("\(name).store")
        let container = try container ?? ModelContainer(for: SyncTestSchema.schema, configurations: [ModelConfiguration(url: storeURL)])
        self.container = container
        makeEngine = {
            var configuration = SyncConfiguration(server: server, token: syncToken, models: SyncTestSchema.models)
            configuration.requestTimeout = .seconds(10)
            if container.configurations.isEmpty {
                configuration.stateLocation = .file(directory.appendingPathComponent("\(name).state"))
            }
            configure(&configuration)
            return try SyncEngine(container: container, configuration: configuration)
        }
        engine = try makeEngine()
    }

    /// A new engine on the same store and state, as after a restart of the app.
    func restart() throws {
        engine = try makeEngine()
    }

    func sync() async throws {
        try await engine.sync()
    }

    func context() -> ModelContext {
        ModelContext(container)
    }

    func dump() throws -> [String] {
        try syncDump(container)
    }
}

/// Every model and relationship of a container, one line each, sorted: equal dumps mean equal
/// stores, whatever the identifiers.
func syncDump(_ container: ModelContainer) throws -> [String] {
    let context = ModelContext(container)
    var lines: [String] = []
    for folder in try context.fetch(FetchDescriptor<SyncFolder>()) {
        lines.append("folder \(folder.name) color=\(folder.color) notes=\(folder.notes.map(\.uid).sorted())")
    }
    for note in try context.fetch(FetchDescriptor<SyncNote>()) {
        lines.append("note \(note.uid) title=\(note.title) body=\(note.body ?? "nil") rating=\(note.rating) created=\(note.created.timeIntervalSinceReferenceDate) "
            + "attachment=\(note.attachment?.base64EncodedString() ?? "nil") folder=\(note.folder?.name ?? "nil") labels=\(note.labels.map(\.name).sorted())")
    }
    for label in try context.fetch(FetchDescriptor<SyncLabel>()) {
        lines.append("label \(label.name) notes=\(label.notes.map(\.uid).sorted())")
    }
    return lines.sorted()
}
