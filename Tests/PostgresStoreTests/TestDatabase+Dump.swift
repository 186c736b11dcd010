import Foundation
import Logging
import NIOPosix
import PostgresNIO
import PostgresStore
import PostgresTestSupport

extension TestDatabase {
    /// What a database keeps, as text by part: `schema` (every column with its type, nullability
    /// and default, every index and constraint) and `rows <table>` (each table's rows as text,
    /// sorted). Equal dumps mean equal data and shape; sequences are left out, as PostgreSQL
    /// advances them even in transactions that roll back.
    static func dump(_ url: String) throws -> [String: Data] {
        try withConnection(to: url) { query in
            var parts: [String: Data] = [:]
            let schema = try query("""
                SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = current_schema()
                UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()
                UNION ALL SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = to_regnamespace(current_schema())
                ORDER BY 1
                """)
            parts["schema"] = Data(schema.joined(separator: "\n").utf8)
            for table in try query("SELECT quote_ident(table_name) FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'") {
                parts["rows \(table)"] = Data(try query("SELECT row_to_json(t)::text FROM \(table) t ORDER BY 1").joined(separator: "\n").utf8)
            }
            return parts
        }
    }

    /// Runs `body` with a function that returns a query's first column as text, on a connection of its own.
    private static func withConnection<Result>(to url: String, _ body: ((String) throws -> [String]) throws -> Result) throws -> Result {
        let configuration = try PostgresStoreConfiguration(url: url)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let logger = Logger(label: "TestDatabase")
        let connection = try PostgresConnection.connect(
            on: group.next(),
            configuration: .init(host: configuration.host, port: configuration.port, username: configuration.username,
                                 password: configuration.password, database: configuration.database, tls: .disable),
            id: 1, logger: logger).wait()
        defer { try? connection.close().wait() }
        return try body { sql in
            try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait().rows.map { row in
                try PostgresRandomAccessRow(row)[0].decode(String?.self) ?? ""
            }
        }
    }
}
