import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresTestSupport
import RemoteStore
import SampleTrips
import Synchronization
import Testing

/// Scaling out (issue 26): three `openswiftdata-server` processes on one PostgreSQL database, and
/// sixteen `RemoteStore` clients spread over them inserting trips for 30 seconds, half of them
/// under names every client uses, so their inserts meet on `Trip`'s `#Unique` key in different
/// servers. Every acknowledged save is stored, once.
@Suite struct ThreeServerTests {
    static let clients = 16
    static let duration: TimeInterval = 30
    static let token = "three-servers"

    @Test func threeServersOnOneDatabaseStoreEveryAcknowledgedTripOnce() async throws {
        try await withBlockingWork(runThreeServers)
    }

    private func runThreeServers() throws {
        let database = try TestDatabase.makeDatabase("threeservers\(UUID().uuidString.prefix(8))")
        // Started together, so that they also race to create the tables.
        let servers = try (0..<3).map { _ in
            try RemoteTripsTests.ServerProcess(arguments: ["--store", database, "--port", "0", "--token", Self.token])
        }
        defer { for server in servers { _ = server.terminate() } }
        let urls = try servers.map { try #require(URL(string: $0.url)) }
        let schema = Schema(versionedSchema: TripsSchemaV2.self)
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let acknowledged = Mutex<[String: Int]>([:])
        let failures = Mutex<[String]>([])
        let deadline = Date().addingTimeInterval(Self.duration)
        let finished = DispatchGroup()
        // Threads of their own: `concurrentPerform` would run only as many clients as there are cores.
        for client in 0..<Self.clients {
            finished.enter()
            Thread {
                defer { finished.leave() }
                do {
                    let container = try ModelContainer(for: schema, configurations: [
                        RemoteStoreConfiguration(name: "client\(client)", schema: schema, url: urls[client % urls.count], token: Self.token),
                    ])
                    var round = 0
                    while Date() < deadline {
                        let context = ModelContext(container)
                        let name = round.isMultiple(of: 2) ? "shared \(round % 40)" : "client \(client) trip \(round)"
                        context.insert(Trip(name: name, destination: "Oslo", startDate: start, endDate: start, budgetCents: client))
                        try context.save()
                        acknowledged.withLock { $0[name, default: 0] += 1 }
                        round += 1
                    }
                } catch {
                    failures.withLock { $0.append("client \(client): \(error)") }
                }
            }.start()
        }
        finished.wait()
        #expect(failures.withLock { $0 } == [])

        // Each server's next fetch sees every other server's saves.
        let saved = acknowledged.withLock { $0 }
        for url in urls {
            let reader = ModelContext(try ModelContainer(for: schema, configurations: [RemoteStoreConfiguration(name: "reader", schema: schema, url: url, token: Self.token)]))
            let names = try reader.fetch(FetchDescriptor<Trip>()).map(\.name)
            #expect(names.count == Set(names).count, "no trip is stored twice")
            #expect(Set(names) == Set(saved.keys), "every acknowledged trip is stored")
        }
        #expect(saved.count > 100)
        #expect(saved.values.reduce(0, +) > saved.count, "inserts under shared names met on the unique key")
    }
}
