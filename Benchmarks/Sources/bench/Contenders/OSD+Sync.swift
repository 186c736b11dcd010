import Foundation
import Logging
import OpenSwiftData
import StoreServer
import StoreSync

/// Two StoreSync clients, each an engine on a default store file of its own, and a StoreServer
/// over a default store, all in this process; the clients reach the server over HTTP on
/// 127.0.0.1, as `remote` does.
final class OSDSync: SyncSubject {
    private static let token = "bench"
    private let directory: ScratchDirectory
    private let serverContainer: ModelContainer
    private let server: RunningStoreServer
    private let pusher: SyncBenchClient
    private var puller: SyncBenchClient?

    init(_ directory: ScratchDirectory) throws {
        self.directory = directory
        serverContainer = try ModelContainer(for: Schema([User.self]), configurations: [ModelConfiguration(url: directory.file("server.store"))])
        var logger = Logger(label: "bench.server")
        logger.logLevel = .critical
        server = try StoreServer(container: serverContainer, configuration: StoreServerConfiguration(port: 0, tokens: [Self.token]),
                                 logger: logger).start()
        pusher = try SyncBenchClient(directory.file("pusher.store"), server: server.url, token: Self.token)
    }

    deinit { server.stop() }

    func load(_ users: [UserRow]) throws {
        let context = ModelContext(pusher.container)
        for user in users { context.insert(User(user)) }
        try context.save()
    }

    func firstPush() throws -> Int {
        try pusher.sync()
        return try ModelContext(serverContainer).fetchCount(FetchDescriptor<User>())
    }

    func firstPull() throws -> Int {
        let client = try SyncBenchClient(directory.file("puller.store"), server: server.url, token: Self.token)
        puller = client
        try client.sync()
        return try ModelContext(client.container).fetchCount(FetchDescriptor<User>())
    }

    func change(_ count: Int) throws {
        let context = ModelContext(pusher.container)
        var descriptor = FetchDescriptor<User>(sortBy: [SortDescriptor(\.firstName), SortDescriptor(\.lastName)])
        descriptor.fetchLimit = count
        for user in try context.fetch(descriptor) { user.age += 1 }
        try context.save()
    }

    func pushChanges() throws -> Int {
        try pusher.sync()
        return try ModelContext(serverContainer).fetchCount(FetchDescriptor<User>())
    }

    func pullChanges() throws -> Int {
        let client = try requirePuller()
        try client.sync()
        return try ModelContext(client.container).fetch(FetchDescriptor<User>()).reduce(0) { $0 &+ $1.age }
    }

    func latencies(samples: Int, warmUp: Int) throws -> [Double] {
        let puller = try requirePuller()
        let arrived = DispatchSemaphore(value: 0)
        let container = puller.container
        // The engine saves what it pulls under its own author: a save of it that inserts is the arrival.
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { note in
            guard let context = note.object as? ModelContext, context.container == container, context.author == "StoreSync",
                  let inserted = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier],
                  !inserted.isEmpty else { return }
            arrived.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        pusher.engine.start()
        puller.engine.start()
        defer {
            puller.stop()
            pusher.stop()
        }
        var times: [Double] = []
        for sample in 0..<(warmUp + samples) {
            let context = ModelContext(pusher.container)
            context.insert(User(UserRow(id: UUID(), firstName: "Latency", lastName: "\(sample)", age: 30)))
            let start = ContinuousClock.now
            try context.save()
            guard arrived.wait(timeout: .now() + 30) == .success else {
                throw UsageError("sync: save \(sample) did not arrive on the other client within 30 s")
            }
            let elapsed = ContinuousClock.now - start
            if sample >= warmUp {
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        return times
    }

    private func requirePuller() throws -> SyncBenchClient {
        guard let puller else { throw UsageError("sync: the second client is made by the first pull") }
        return puller
    }
}

/// A local default store and a sync engine on it, its state beside the store.
private final class SyncBenchClient {
    let container: ModelContainer
    let engine: SyncEngine

    init(_ url: URL, server: URL, token: String) throws {
        container = try ModelContainer(for: Schema([User.self]), configurations: [ModelConfiguration(url: url)])
        engine = try SyncEngine(container: container, configuration: SyncConfiguration(server: server, token: token, models: [User.self]))
    }

    /// One round, from this synchronous benchmark.
    func sync() throws {
        let engine = engine
        try wait { try await engine.sync() }
    }

    func stop() {
        let engine = engine
        try? wait { await engine.stop() }
    }

    private func wait(_ operation: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Failure()
        Task {
            do { try await operation() } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
    }
}

/// A task's error handed to the thread waiting for it (the semaphore orders the two).
private final class Failure: @unchecked Sendable {
    var error: (any Error)?
}
