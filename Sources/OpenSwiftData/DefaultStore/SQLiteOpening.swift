import Foundation
import GRDB
import OpenSwiftDataCore

/// Opens the SQLite database behind a ``ModelConfiguration``.
///
/// An existing file is first inspected through a read-only connection: a file that is not an
/// SQLite database, or an SQLite database of another program (tables but no `osd_metadata`), is
/// refused before anything can write to it. Only then is it opened for writing; once migrated it
/// switches to WAL mode (``enableWAL(_:path:)``), so readers never wait for a save. Every connection waits up to ``busyTimeout`` for a lock another
/// connection or process holds, instead of failing at once.
enum SQLiteOpening {
    static let busyTimeout: TimeInterval = 10

    struct Opened {
        let queue: DatabaseQueue
        /// Whether the store may be written (a saving configuration, or any in-memory one).
        let isWritable: Bool
    }

    static func open(_ configuration: ModelConfiguration, path: String) throws -> Opened {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.label = "OpenSwiftData.DefaultStore(\(configuration.name))"
        let storeName = configuration.name
        config.prepareDatabase { db in
            SQLiteQueryBinding.registerFunctions(in: db)
            SQLiteStatementLog.install(in: db, storeName: storeName)
        }
        // A migration's transaction spans several uses of the queue (`SQLiteMigrationTarget`).
        config.allowsUnsafeTransactions = true
        if configuration.isStoredInMemoryOnly {
            // A private, unnamed in-memory database: the same SQL as a file, isolated per store.
            return Opened(queue: try attempt(path, "Creating the in-memory store") { try DatabaseQueue(configuration: config) }, isWritable: true)
        }
        let exists = FileManager.default.fileExists(atPath: path)
        if exists {
            try inspect(path: path, configuration: config)
        } else if configuration.allowsSave {
            try createDirectory(of: configuration.url, path: path)
        } else {
            throw SQLiteStoreError(.cannotOpen, "There is no store file here, and the configuration '\(configuration.name)' is read-only (allowsSave: false), so none is created. Create the store with a saving configuration first, or check the URL.", path: path)
        }
        if !configuration.allowsSave {
            config.readonly = true
            return Opened(queue: try attempt(path, "Opening the store read-only") { try DatabaseQueue(path: path, configuration: config) }, isWritable: false)
        }
        return Opened(queue: try attempt(path, "Opening the store") { try DatabaseQueue(path: path, configuration: config) }, isWritable: true)
    }

    /// Switches a file store to WAL mode, once it is known to be a store and migrated, so a file
    /// that is refused keeps its journal mode too.
    static func enableWAL(_ queue: DatabaseQueue, path: String) throws {
        try attempt(path, "Switching the store to WAL mode") {
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
        }
    }

    /// Refuses a file that is not a store of ours, through a connection that cannot write.
    private static func inspect(path: String, configuration: Configuration) throws {
        var readOnly = configuration
        readOnly.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            try queue.read { db in
                guard try !SQLiteMetadata.exists(db), try !SQLiteMetadata.isEmptyDatabase(db) else { return }
                throw notAStore(path)
            }
            try queue.close()
        } catch let error as DatabaseError where recoveryCodes.contains(error.extendedResultCode) {
            // A writer died mid-transaction and left a journal only a writable connection may roll
            // back (restoring the last commit, as SQLite does for any program). The store checks
            // for its metadata again inside its first transaction, before writing anything.
        } catch {
            throw SQLiteStoreError.wrapping(error, path: path, doing: "Reading the store file")
        }
    }

    private static let recoveryCodes: [ResultCode] = [.SQLITE_READONLY_ROLLBACK, .SQLITE_READONLY_RECOVERY, .SQLITE_READONLY_CANTINIT]

    static func notAStore(_ path: String) -> SQLiteStoreError {
        SQLiteStoreError(.notAStore, "The file is an SQLite database of another program (it has tables but no osd_metadata table), so the store leaves it untouched. Choose another URL for the store, or move the file away.", path: path)
    }

    private static func createDirectory(of url: URL, path: String) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw SQLiteStoreError(.cannotOpen, "The store's directory cannot be created; check the URL and this user's permissions.", path: path, underlying: error)
        }
    }

    /// Runs `body`, turning SQLite's failures into ``SQLiteStoreError``s that name the file.
    @discardableResult
    static func attempt<T>(_ path: String, _ action: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SQLiteStoreError.wrapping(error, path: path, doing: action())
        }
    }
}
