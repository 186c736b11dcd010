import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOPosix
import PostgresNIO
import PostgresStore
import Synchronization

/// The PostgreSQL server the tests use (PostgresStore's, and the servers' on PostgreSQL): `OSD_POSTGRES_URL` when set (`.ci/run` and
/// `scripts/postgres-cluster.sh start` export it), else a throw-away cluster this process starts
/// with that script when PostgreSQL's binaries are installed, stopped when the process exits.
/// Without either, every test that needs it fails with a message saying how to start one.
package enum TestDatabase {
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    private static let server = Mutex<Result<String, Unavailable>?>(nil)

    /// The server's URL (its database is the cluster's own), starting a cluster the first time.
    package static func serverURL() throws -> String {
        try server.withLock { cached in
            if let cached { return try cached.get() }
            let result = Result { try locateServer() }.mapError { $0 as? Unavailable ?? Unavailable(description: "\($0)") }
            cached = result
            return try result.get()
        }
    }

    /// A new, empty database on the server, named after `name` (made unique), as a URL.
    package static func makeDatabase(_ name: String = UUID().uuidString) throws -> String {
        let url = try serverURL()
        let database = "osd_test_" + name.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(40)
        try execute("CREATE DATABASE \"\(database)\"", on: url)
        var components = URLComponents(string: url)!
        components.path = "/\(database)"
        return components.string!
    }

    /// Runs one statement on the server's database through a connection of its own.
    package static func execute(_ sql: String, on url: String) throws {
        _ = try strings(sql, in: try PostgresStoreConfiguration(url: url))
    }

    /// The first column of each row a query answers, as text (NULL as "NULL"), on the database
    /// `configuration` names, through a connection of its own.
    package static func strings(_ sql: String, in configuration: PostgresStoreConfiguration) throws -> [String] {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let connection = try PostgresConnection.connect(
            on: group.next(),
            configuration: .init(host: configuration.host, port: configuration.port, username: configuration.username,
                                 password: configuration.password, database: configuration.database, tls: .disable),
            id: 1, logger: Logger(label: "TestDatabase")).wait()
        defer { try? connection.close().wait() }
        let rows = try connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "TestDatabase")).wait().rows
        return try rows.map { try PostgresRandomAccessRow($0)[0].decode(String?.self) ?? "NULL" }
    }

    private static func locateServer() throws -> String {
        if let url = ProcessInfo.processInfo.environment["OSD_POSTGRES_URL"], !url.isEmpty { return url }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres-cluster.sh")
        let advice = "Start one with `eval \"$(scripts/postgres-cluster.sh start)\"` (PostgreSQL's binaries installed: apt-get install postgresql) or set OSD_POSTGRES_URL=postgres://user@host:port/database."
        // Through the shell's `system`, not Foundation's `Process`: the server the script starts
        // inherits the script's descriptors, and `Process` learns of the exit through one of them.
        let exportsFile = FileManager.default.temporaryDirectory.appendingPathComponent("osd-postgres-\(UUID().uuidString).env")
        defer { try? FileManager.default.removeItem(at: exportsFile) }
        let status = system("/bin/bash '\(script.path)' start > '\(exportsFile.path)' 2>/dev/null")
        let text = (try? String(contentsOf: exportsFile, encoding: .utf8)) ?? ""
        var exports: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { exports[String(pair[0])] = String(pair[1]) }
        }
        guard status == 0, let url = exports["OSD_POSTGRES_URL"], let directory = exports["OSD_POSTGRES_DIR"] else {
            throw Unavailable(description: "PostgresStore's tests need a PostgreSQL server: OSD_POSTGRES_URL is not set and \(script.path) could not start a cluster (status \(status)). \(advice)")
        }
        startedCluster.withLock { $0 = (script.path, directory) }
        atexit {
            guard let (script, directory) = TestDatabase.startedCluster.withLock({ $0 }) else { return }
            _ = system("/bin/bash '\(script)' stop '\(directory)' 2>/dev/null")
        }
        return url
    }

    fileprivate static let startedCluster = Mutex<(String, String)?>(nil)
}
