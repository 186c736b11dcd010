import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import DataStoreTesting
import OpenSwiftData
import PostgresTestSupport
import RemoteStore
import SampleTrips
import Testing

/// A server on PostgreSQL while its database refuses connections (issue 46): requests get 503 with
/// `Retry-After` and a message without the database's address, and RemoteStore's retries carry a
/// save through once the database is back.
@Suite struct PostgresOutageTests {
    static let token = "outage-token"

    /// Stops the database taking connections and ends the ones it has, as a restart would.
    private func pause(_ database: String) throws {
        let name = try #require(URLComponents(string: database)?.path.dropFirst())
        let server = try TestDatabase.serverURL()
        try TestDatabase.execute("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS false", on: server)
        try TestDatabase.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()", on: server)
    }

    private func resume(_ database: String) throws {
        let name = try #require(URLComponents(string: database)?.path.dropFirst())
        try TestDatabase.execute("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true", on: try TestDatabase.serverURL())
    }

    private func count(_ server: RemoteTripsTests.ServerProcess) async throws -> (status: Int?, retryAfter: String?, body: String) {
        var request = URLRequest(url: URL(string: server.url + "/v1/count")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"query":{"entityName":"Trip","sortBy":[]}}"#.utf8)
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode, http?.value(forHTTPHeaderField: "Retry-After"), String(decoding: body, as: UTF8.self))
    }

    @Test func anOutageAnswers503WithRetryAfterAndTheServerServesOnceTheDatabaseIsBack() async throws {
        let database = try TestDatabase.makeDatabase("outage\(UUID().uuidString.prefix(8))")
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", database, "--port", "0", "--token", Self.token, "--time-limit", "5"])
        defer { _ = server.terminate() }
        #expect(try await count(server).status == 200)

        try pause(database)
        defer { try? resume(database) }
        let started = Date()
        let outage = try await count(server)
        #expect(outage.status == 503)
        #expect(outage.retryAfter == "1")
        let error = try JSONDecoder().decode([String: [String: String]].self, from: Data(outage.body.utf8))["error"]
        #expect(error == ["code": "storeUnavailable", "message": "The server's store is unavailable for now: its database could not be reached, did not answer in time, or was busy. Retry shortly; a save may or may not have been applied, so retry it with the same Idempotency-Key, which applies it once."])
        #expect(Date().timeIntervalSince(started) < 5)

        try resume(database)
        #expect(try await count(server).body == #"{"count":0}"#)
    }

    @Test func remoteStoreRetriesASaveThroughAnOutage() async throws {
        let database = try TestDatabase.makeDatabase("outagesave\(UUID().uuidString.prefix(8))")
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", database, "--port", "0", "--token", Self.token, "--time-limit", "5"])
        defer { _ = server.terminate() }
        let schema = Schema(versionedSchema: TripsSchemaV2.self)
        let container = try ModelContainer(for: schema, configurations: [
            RemoteStoreConfiguration(schema: schema, url: try #require(URL(string: server.url)), token: Self.token, attempts: 10),
        ])
        try await withBlockingWork {
            let context = ModelContext(container)
            #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
            try pause(database)
            let resumer = Thread { [self] in
                Thread.sleep(forTimeInterval: 1.5)
                try? resume(database)
            }
            resumer.start()
            let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
            context.insert(Trip(name: "Through", destination: "Oslo", startDate: start, endDate: start, budgetCents: 1))
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
        }
    }
}
