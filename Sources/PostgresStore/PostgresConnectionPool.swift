import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The store's connections, on an event-loop group of its own, used one caller at a time each.
///
/// `DataStore` is synchronous: a caller blocks on the connection's futures. That is safe on any
/// thread but the group's own (it would wait for itself), which is refused with
/// `.calledOnEventLoop`; the group belongs to the store, so no Swift task's executor is blocked
/// on work that needs it. Every wait ends by the configuration's `timeout` at the latest, and as
/// soon as its connection closes, so a database that crashes or stops answering never holds a
/// caller (or a lock the caller holds) for good. While the store opens, a statement may take up
/// to an hour: a migration rewrites tables, and waits for another process's migration.
final class PostgresConnectionPool: @unchecked Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let configuration: PostgresConnection.Configuration
    private let capacity: Int
    /// The longest one wait may last.
    private let timeout: TimeInterval
    /// The longest a statement may take while the store opens.
    private static let openingTimeout: TimeInterval = 3600
    /// Whether the store has opened; guarded by ``condition``.
    private var isOpen = false
    /// `user@host:port`, for messages.
    private let address: String
    private let logger = Logger(label: "OpenSwiftData.PostgresStore")
    /// The logger statements run with. PostgresNIO logs a statement at debug level and sets
    /// metadata on its logger for each one, which a handler such as `StreamLogHandler` renders
    /// anew every time; where nothing at debug level would be logged, statements get a logger
    /// that drops everything, and the rendering is not paid per statement.
    private let statementLogger: Logger
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    /// The one connection of a pool lent a connection inside a transaction (a migration's): every
    /// call runs on it, and a failure leaves it to its owner rather than closing it.
    private let lent: PostgresConnection?
    /// Whether statements run inside a transaction that the pool's users do not own, so a save
    /// makes a savepoint instead of a transaction.
    var isInsideTransaction: Bool { lent != nil }

    init(_ settings: PostgresStoreConfiguration) throws {
        let tls: PostgresConnection.Configuration.TLS
        switch settings.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try .init(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try .init(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(host: settings.host, port: settings.port, username: settings.username,
                                                             password: settings.password, database: settings.database, tls: tls)
        timeout = max(0.001, Double(settings.timeout.components.seconds) + Double(settings.timeout.components.attoseconds) / 1e18)
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout * 1e9))
        self.configuration = configuration
        capacity = max(1, settings.poolSize)
        address = "\(settings.username)@\(settings.host):\(settings.port)"
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        lent = nil
        statementLogger = Self.statementLogger(for: logger)
    }

    /// A pool of `connection` alone, which `pool` holds in an open transaction.
    init(lending connection: PostgresConnection, from pool: PostgresConnectionPool) {
        group = pool.group
        configuration = pool.configuration
        capacity = 1
        timeout = pool.timeout
        isOpen = pool.condition.withLock { pool.isOpen }
        address = pool.address
        lent = connection
        statementLogger = pool.statementLogger
    }

    deinit {
        // A lent connection and its event loops belong to the pool that lent them.
        guard lent == nil else { return }
        for connection in idle { Self.close(connection) }
        group.shutdownGracefully { _ in }
    }

    /// Closes a connection, waiting when the thread may wait; the connection must outlive its close.
    static func close(_ connection: PostgresConnection) {
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            // Closing the channel fails what is still queued on it at once; the deadline only
            // guards against an event loop that has stopped.
            _ = DeadlineWait.wait(for: connection.close(), orClose: nil, until: Date(timeIntervalSinceNow: 5))
        } else {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    /// Runs `body` with a connection of its own, returned to the pool afterwards; a connection a
    /// failure may have left mid-transaction or broken is closed instead.
    func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw PostgresStoreError(.calledOnEventLoop, "A PostgresStore was called synchronously on an event-loop thread, where waiting would never end; call it from another thread or task.")
        }
        if let lent { return try body(lent) }
        let connection = try checkOut()
        do {
            let result = try body(connection)
            checkIn(connection, reusable: true)
            return result
        } catch {
            checkIn(connection, reusable: false)
            throw error
        }
    }

    /// Runs one statement and returns its rows.
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), on connection: PostgresConnection) throws -> [PostgresRow] {
        // A commit's outcome is unknown when the connection ends before its answer.
        let committing = sql == "COMMIT"
        guard !connection.isClosed else { throw lostConnection(committing: committing) }
        let query = connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: statementLogger)
        let limit = condition.withLock { isOpen } ? timeout : max(timeout, Self.openingTimeout)
        switch DeadlineWait.wait(for: query, orClose: connection.closeFuture, until: Date(timeIntervalSinceNow: limit)) {
        case .completed(.success(let result)):
            return result.rows
        case .completed(.failure(let error as PSQLError)) where error.endsConnection:
            throw lostConnection(committing: committing, cause: error.serverInfo?[.message] ?? String(describing: error.code))
        case .completed(.failure(let error as PSQLError)):
            throw PostgresStoreError(error)
        case .completed(.failure(let error)):
            throw lostConnection(committing: committing, cause: String(describing: error))
        case .closed:
            throw lostConnection(committing: committing)
        case .timedOut:
            // Closing the connection ends the statement's transaction on the server too.
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
            throw PostgresStoreError(.timedOut, "PostgreSQL at \(address) did not answer a statement within \(Self.text(limit))\(committing ? "; whether the save committed is unknown: retry it with the same idempotency key, which applies it once" : "; what the call had begun was rolled back"). Check the database server's load and the network, or raise the store's timeout.")
        }
    }

    private func lostConnection(committing: Bool, cause: String? = nil) -> PostgresStoreError {
        let reason = cause.map { " (\($0))" } ?? ""
        return PostgresStoreError(.connectionLost, "The connection to PostgreSQL at \(address) was lost\(reason)\(committing ? " while a save committed; whether it did is unknown: retry it with the same idempotency key, which applies it once" : "; what the call had begun was rolled back"). Retry once the database server is back.")
    }

    /// Statements from now on wait no longer than the configuration's timeout.
    func finishOpening() {
        condition.withLock { isOpen = true }
    }

    private var timeoutText: String { Self.text(timeout) }

    private static func text(_ seconds: TimeInterval) -> String {
        seconds >= 1 && seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    private static func statementLogger(for logger: Logger) -> Logger {
        guard logger.logLevel > .debug else { return logger }
        return Logger(label: logger.label) { _ in SwiftLogNoOpLogHandler() }
    }

    /// A connection outside the pool, for a listener that holds it as long as it lives; the
    /// caller closes it.
    func connectDedicated() throws -> PostgresConnection {
        try connect(id: 0)
    }

    private func connect(id: Int) throws -> PostgresConnection {
        let connecting = PostgresConnection.connect(on: group.next(), configuration: configuration, id: id, logger: logger)
        switch DeadlineWait.wait(for: connecting, orClose: nil, until: Date(timeIntervalSinceNow: timeout)) {
        case .completed(.success(let connection)):
            return connection
        case .completed(.failure(let error)):
            throw PostgresStoreError(.connectionFailed, "Cannot connect to PostgreSQL as \(address) (\(String(reflecting: error))). Check that the server runs and the URL is right.")
        case .closed, .timedOut:
            // A connection made after all is closed as soon as it is.
            connecting.whenSuccess { Self.close($0) }
            throw PostgresStoreError(.connectionFailed, "Cannot connect to PostgreSQL as \(address): no answer within \(timeoutText). Check that the server runs and the network reaches it.")
        }
    }

    private func checkOut() throws -> PostgresConnection {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while idle.isEmpty && open >= capacity {
            guard condition.wait(until: deadline) || !idle.isEmpty || open < capacity else {
                condition.unlock()
                throw PostgresStoreError(.timedOut, "All \(capacity) connections to PostgreSQL at \(address) stayed busy for \(timeoutText); nothing was done. Retry, or raise the store's poolSize or timeout.")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            if !connection.isClosed { return connection }
            condition.lock()
            open -= 1
            condition.unlock()
            return try checkOut()
        }
        open += 1
        nextID += 1
        let id = nextID
        condition.unlock()
        do {
            return try connect(id: id)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection, reusable: Bool) {
        if !reusable {
            // A failed statement may leave a transaction open: never hand that connection out again.
            Self.close(connection)
        }
        condition.lock()
        if reusable { idle.append(connection) } else { open -= 1 }
        condition.signal()
        condition.unlock()
    }
}

extension PSQLError {
    /// Whether the error ended the connection rather than one statement: the channel closed,
    /// or the server reported a connection failure (class 08) or its own shutdown (57P01–57P03).
    var endsConnection: Bool {
        guard let state = serverInfo?[.sqlState] else {
            return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(code)
        }
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }
}

extension PostgresStoreError {
    /// A server's error as the store reports it: its SQLSTATE and message, never bound values.
    init(_ error: PSQLError) {
        let state = error.serverInfo?[.sqlState]
        let message = error.serverInfo?[.message] ?? String(describing: error.code)
        switch state {
        case "23505":
            self.init(.constraintViolation, "The save would make two models equal on a uniqueness constraint (\(message)); nothing was saved.", sqlState: state)
        case "40001", "40P01":
            self.init(.saveConflict, "The save conflicted with a concurrent save (\(message)).", sqlState: state)
        default:
            self.init(.queryFailed, "PostgreSQL refused a statement: \(message).", sqlState: state)
        }
    }
}
