import Foundation
import OpenSwiftDataCore

/// Configures a ``PostgresStore``: which PostgreSQL database holds the models, and how to reach it.
///
/// ```swift
/// let configuration = try PostgresStoreConfiguration(url: "postgres://app:secret@db.internal:5432/trips")
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// ```
///
/// Several processes (several `openswiftdata-server` instances, say) may open the same database:
/// they share its tables, its uniqueness constraints and its store identifier.
public struct PostgresStoreConfiguration: DataStoreConfiguration, Sendable {
    /// The store this configuration opens.
    public typealias Store = PostgresStore

    /// Whether and how the connection is encrypted.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// A plain connection (loopback, or a private network you trust).
        case disable
        /// TLS when the server offers it, plain otherwise.
        case prefer
        /// TLS, with the server's certificate verified; the connection fails without it.
        case require
    }

    /// The configuration's name, unique in its container.
    public var name: String
    /// The models this store holds; `nil` for the container's whole schema.
    public var schema: Schema?
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The user to connect as.
    public var username: String
    /// The user's password; `nil` for trust or peer authentication.
    public var password: String?
    /// The database holding the store's tables.
    public var database: String
    /// Whether the connection is encrypted.
    public var tls: TLSMode
    /// How many connections the store keeps open at most.
    public var poolSize: Int
    /// How much history the store keeps: as it saves, it deletes the transactions beyond either
    /// bound, and tokens from before them expire. The newest 100,000 transactions, none older
    /// than 30 days, by default.
    public var historyRetention: HistoryRetention = .default
    /// The longest the store waits on PostgreSQL at each step: to connect, for a free connection
    /// of the pool, and for each statement's answer. Past it the call throws ``PostgresStoreError``
    /// `.timedOut` and the connection is closed, so the server rolls back its transaction. 30
    /// seconds by default; a server serving the store passes its own request time limit. While
    /// the store opens, a statement may take up to an hour (a migration rewriting tables, or
    /// waiting for another process's).
    public var timeout: Duration = .seconds(30)

    /// Configures a store on the database at `host`.
    public init(name: String = "PostgresStore", schema: Schema? = nil, host: String = "127.0.0.1", port: Int = 5432,
                username: String, password: String? = nil, database: String, tls: TLSMode = .disable, poolSize: Int = 4) {
        self.name = name
        self.schema = schema
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.poolSize = poolSize
    }

    /// Configures a store from a `postgres://user:password@host:port/database?sslmode=…` URL
    /// (`postgresql://` too). `sslmode` is `disable` (the default), `prefer` or `require`; a
    /// missing port is 5432, a missing user `postgres`.
    ///
    /// - Throws: ``PostgresStoreError`` `.invalidConfiguration` for a URL that does not name a
    ///   host and a database, or names an unknown `sslmode`.
    public init(name: String = "PostgresStore", schema: Schema? = nil, url: String, poolSize: Int = 4) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw PostgresStoreError(.invalidConfiguration, "\(Self.redacted(url)) is not a PostgreSQL URL; write postgres://user:password@host:port/database.")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw PostgresStoreError(.invalidConfiguration, "\(Self.redacted(url)) names no database; end it with /database.")
        }
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard let tls = TLSMode(rawValue: mode) else {
            throw PostgresStoreError(.invalidConfiguration, "sslmode=\(mode) is not supported; use disable, prefer or require.")
        }
        self.init(name: name, schema: schema, host: host, port: components.port ?? 5432,
                  username: components.user.flatMap { $0.removingPercentEncoding } ?? "postgres",
                  password: components.password.flatMap { $0.removingPercentEncoding },
                  database: database, tls: tls, poolSize: poolSize)
    }

    /// The URL with its password replaced, for messages and logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "…"
        return components.string ?? "the URL"
    }
}
