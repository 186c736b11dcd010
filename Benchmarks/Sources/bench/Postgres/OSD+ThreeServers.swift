import Foundation
import Logging
import OpenSwiftData
import PostgresStore
import RemoteStore
import StoreServer
import Synchronization

/// The three servers are StoreServer instances in this process, each over a PostgresStore of its
/// own (its own connection pool) on the same database: spawning `openswiftdata-server` would need
/// the root package's executable built and found from this package. The clients are RemoteStores
/// over HTTP on 127.0.0.1, one thread each.
final class OSDThreeServers: ThreeServersSubject {
    private static let token = "bench"
    private let servers: [RunningStoreServer]
    private let clients: [ModelContainer]

    init() throws {
        let url = try BenchPostgres.freshDatabase()
        let schema = Schema([UniqueUser.self])
        var logger = Logger(label: "bench.server")
        logger.logLevel = .critical
        var servers: [RunningStoreServer] = []
        for _ in 0..<ThreeServers.servers {
            let store = try ModelContainer(for: schema, configurations: [PostgresStoreConfiguration(schema: schema, url: url)])
            servers.append(try StoreServer(container: store, configuration: StoreServerConfiguration(port: 0, tokens: [Self.token]),
                                           logger: logger).start())
        }
        self.servers = servers
        clients = try (0..<ThreeServers.clients).map { client in
            try ModelContainer(for: schema, configurations: [
                RemoteStoreConfiguration(name: "client\(client)", schema: schema, url: servers[client % servers.count].url, token: Self.token),
            ])
        }
    }

    deinit { for server in servers { server.stop() } }

    func saveConcurrently(for duration: Duration) throws -> (saves: Int, seconds: Double) {
        var random = SeededGenerator(seed: 26)
        let shared = (0..<ThreeServers.sharedIDs).map { _ in random.uuid() }
        let saves = Mutex(0)
        let failures = Mutex<[String]>([])
        let finished = DispatchGroup()
        let start = ContinuousClock.now
        let deadline = start + duration
        // Threads of their own: a dispatch queue would run only as many clients as there are cores.
        for (client, container) in clients.enumerated() {
            finished.enter()
            Thread {
                defer { finished.leave() }
                var round = 0
                do {
                    while ContinuousClock.now < deadline {
                        let context = ModelContext(container)
                        let id = round.isMultiple(of: 2) ? shared[round / 2 % shared.count] : UUID()
                        context.insert(UniqueUser(UserRow(id: id, firstName: "Client", lastName: "\(client)", age: round % 73 + 18)))
                        try context.save()
                        saves.withLock { $0 += 1 }
                        round += 1
                    }
                } catch {
                    failures.withLock { $0.append("client \(client): \(error)") }
                }
            }.start()
        }
        finished.wait()
        let elapsed = ContinuousClock.now - start
        if let failure = failures.withLock({ $0.first }) { throw UsageError("three-servers: a save failed: \(failure)") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (saves.withLock { $0 }, seconds)
    }
}
