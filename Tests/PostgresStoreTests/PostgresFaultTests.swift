import Foundation
#if canImport(Glibc)
import Glibc
#endif
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// Every wait on PostgreSQL ends: at the configured timeout, or at once when the connection
/// closes, and the store serves again afterwards.
@Suite struct PostgresFaultTests {
    private func store(_ url: String, timeout: Duration) throws -> PostgresStore {
        var configuration = try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url)
        configuration.timeout = timeout
        return try PostgresStore(configuration)
    }

    private func ticketCount(_ store: PostgresStore) throws -> Int {
        try store.fetchCount(DataStoreFetchRequest(editingState: EditingState(), descriptor: FetchDescriptor<PGTicket>()))
    }

    @Test func statementPastTheTimeoutThrowsTimedOutAndTheStoreServesAgain() throws {
        // Long enough to connect on a loaded machine, far shorter than the statement.
        let store = try store(try TestDatabase.makeDatabase(), timeout: .seconds(3))
        let started = Date()
        let error = try #require(throws: PostgresStoreError.self) { try store.runForTesting("SELECT pg_sleep(60)") }
        #expect(error.code == .timedOut)
        #expect(error.message.contains("did not answer a statement within 3 s"))
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try ticketCount(store) == 0)
    }

    @Test func connectionEndedByTheServerThrowsConnectionLostBeforeTheTimeout() throws {
        let url = try TestDatabase.makeDatabase()
        let store = try store(url, timeout: .seconds(60))
        let marker = "osd_fault_\(UUID().uuidString.prefix(8))"
        let killer = Thread {
            // Until the sleeping statement shows up, then end its backend as a crash would.
            for _ in 0..<200 {
                let ended = (try? TestDatabase.strings("SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND pid <> pg_backend_pid()",
                                                       in: try PostgresStoreConfiguration(url: url))) ?? []
                if ended.contains("true") { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        killer.start()
        let started = Date()
        let error = try #require(throws: PostgresStoreError.self) { try store.runForTesting("SELECT pg_sleep(30) AS \(marker)") }
        #expect(error.code == .connectionLost)
        #expect(error.message.contains("what the call had begun was rolled back"))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try ticketCount(store) == 0)
    }

    @Test func serverThatNeverAnswersFailsTheOpenWithinTheTimeout() throws {
        // A listening socket that completes TCP handshakes and then says nothing.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let started = Date()
        let error = try #require(throws: PostgresStoreError.self) {
            try store("postgres://osd@127.0.0.1:\(port)/osd", timeout: .milliseconds(500))
        }
        #expect(error.code == .connectionFailed)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
