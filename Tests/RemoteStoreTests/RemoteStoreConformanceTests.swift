import DataStoreTesting
import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// The conformance kit against RemoteStore → StoreServer → DefaultStore, all in this process on
/// 127.0.0.1: one server per check, over a store file in the check's directory.
@Suite struct RemoteStoreConformanceTests {
    static let kit = DataStoreConformance(capabilities: .all) { schema, location in
        let server = try ServerRegistry.shared.server(for: location, schema: schema)
        return RemoteStoreConfiguration(name: "conformance", schema: schema, url: server.url, token: testToken)
    }

    @Test(arguments: DataStoreConformance.checks)
    func remoteStoreOverDefaultStore(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.kit)
    }
}

/// One server per check directory: every container a check opens on its directory reaches the same
/// server, as every container on a file reaches the same file. Servers of finished checks (whose
/// directory the kit removed) are stopped when the next one starts.
final class ServerRegistry: @unchecked Sendable {
    static let shared = ServerRegistry()
    private let lock = NSLock()
    private var servers: [URL: RunningStoreServer] = [:]

    func server(for location: URL, schema: Schema) throws -> RunningStoreServer {
        let finished: [RunningStoreServer] = lock.withLock {
            let gone = servers.keys.filter { !FileManager.default.fileExists(atPath: $0.path) }
            return gone.compactMap { servers.removeValue(forKey: $0) }
        }
        // Stopping waits for the finished check's connections; the next check need not.
        for server in finished { Thread.detachNewThread { server.stop() } }
        if let running = lock.withLock({ servers[location] }) { return running }
        let server = try startServer(schema: schema, directory: location)
        lock.withLock { servers[location] = server }
        return server
    }
}
