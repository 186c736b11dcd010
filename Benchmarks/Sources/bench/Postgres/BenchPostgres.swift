import Foundation
import Logging
import NIOPosix
import PostgresNIO
import PostgresStore

/// The PostgreSQL server the PostgreSQL contenders share: `OSD_POSTGRES_URL`, which
/// `--postgres-url` sets for the children. Every run works in a database of the bench's own on
/// it, `osd_bench`, never in the URL's, so a run's drop-and-create cannot touch anyone's data.
enum BenchPostgres {
    static let environmentKey = "OSD_POSTGRES_URL"
    static let database = "osd_bench"
    static let notConfigured = "not run: no PostgreSQL server; from the repository root, eval \"$(scripts/postgres-cluster.sh start)\" "
        + "(or set OSD_POSTGRES_URL, or pass --postgres-url)"

    /// The server's URL, or nil when none is configured.
    static var url: String? {
        guard let url = ProcessInfo.processInfo.environment[environmentKey], !url.isEmpty else { return nil }
        return url
    }

    /// The URL of the bench's database, emptied (its schema dropped and made anew) and created if
    /// missing, so each measured run starts from the same state whichever contender ran before.
    static func freshDatabase() throws -> String {
        guard let url else { throw UsageError(notConfigured) }
        let server = try PostgresStoreConfiguration(url: url)
        if server.database != database {
            let admin = try SyncPostgresConnection(server)
            if try admin.query("SELECT 1 FROM pg_database WHERE datname = '\(database)'").isEmpty {
                _ = try admin.query("CREATE DATABASE \(database)")
            }
        }
        var bench = server
        bench.database = database
        let connection = try SyncPostgresConnection(bench)
        _ = try connection.query("DROP SCHEMA IF EXISTS public CASCADE")
        _ = try connection.query("CREATE SCHEMA public")
        guard var components = URLComponents(string: url) else { throw UsageError("\(environmentKey) is not a URL") }
        components.path = "/\(database)"
        return components.string ?? url
    }
}

/// One PostgreSQL connection used synchronously, as the bench's subjects are: each call waits
/// for its statement on the calling thread (never an event-loop thread).
final class SyncPostgresConnection {
    let connection: PostgresConnection
    private let logger = Logger(label: "bench.postgres")

    init(_ settings: PostgresStoreConfiguration) throws {
        let configuration = PostgresConnection.Configuration(host: settings.host, port: settings.port, username: settings.username,
                                                             password: settings.password, database: settings.database, tls: .disable)
        connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                    id: 1, logger: logger).wait()
    }

    convenience init(url: String) throws {
        try self.init(try PostgresStoreConfiguration(url: url))
    }

    deinit { try? connection.close().wait() }

    func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        Array(try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait().rows)
    }

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        _ = try query("BEGIN")
        do {
            let result = try body()
            _ = try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}
