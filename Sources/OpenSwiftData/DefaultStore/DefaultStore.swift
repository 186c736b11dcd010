import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL
import Synchronization

/// The store behind ``ModelConfiguration``: an SQLite database, one table per entity, or per class
/// hierarchy (the root's table holds every subclass's rows, each naming its entity, so a
/// relationship to a base class may hold a subclass's model and `#Unique` on the base holds
/// across the hierarchy).
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self)      // <data directory>/default.store
/// let scratch = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// ```
///
/// - A file store keeps its ``identifier`` in the file, so permanent identifiers stay valid
///   across launches. An in-memory store is a private SQLite database with a fresh identifier.
/// - Each save is one SQLite transaction: it is written whole or not at all. The file is in WAL
///   mode; other containers and processes may open it, and wait up to 10 seconds for its lock.
/// - Opening a file written for an older schema migrates it (see `SQLiteMigration`); a file
///   that is not a store of this kind is refused and left untouched.
/// - Predicates, sorts, limits and offsets run in SQL when ``QueryTranslator`` and
///   ``SQLiteQueryRenderer`` can express them exactly; otherwise the context applies them in memory.
/// - `#Unique` and `@Attribute(.unique)`: an inserted model equal to a stored one (or to another
///   one inserted in the same save) on a constraint updates that model instead, and takes its
///   identifier, as in SwiftData. Constraints on which a model holds nil never match.
///
/// Errors are ``SQLiteStoreError``s naming the file; saving or batch-deleting through a
/// read-only configuration throws ``PersistenceError`` `.readOnly`.
public final class DefaultStore: DataStore, DataStoreBatching, DataStoreRemapping {
    /// The configuration this store is opened with.
    public typealias Configuration = ModelConfiguration
    /// The snapshots this store reads and writes.
    public typealias Snapshot = DefaultSnapshot

    /// The store's name: its configuration's name.
    public final let name: String
    /// The models the store holds.
    public final let schema: Schema
    /// The configuration the store was opened with.
    public final let configuration: ModelConfiguration
    /// The store's identifier, part of every permanent identifier it mints; a file store keeps it
    /// in the file.
    public final var identifier: String { storeIdentifier }

    let storeIdentifier: String
    /// Every use goes through GRDB's own queue and transactions (``onConnection(_:_:)``), so its
    /// transaction observers see each commit and each changed row.
    let database: DatabaseQueue
    /// The connection, once a transaction observer watches it (``add(transactionObserver:extent:)``).
    let observedConnection = Mutex<UInt?>(nil)
    /// The file's path, or `:memory:`; errors name it.
    let path: String
    let layouts: EntityTable<SQLiteEntityLayout>
    /// Each entity's identifier scope in this store (`IdentifierScope` looks scopes up under a lock).
    let scopes: EntityTable<IdentifierScope>
    let resolver: KeyPathResolver
    /// The `SELECT`s rendered so far, by query shape.
    let selectPlans = SQLiteSelectPlans()
    /// How `delete(model:)` without a predicate empties each table.
    let emptyingPlans = SQLiteEmptying.Plans()

    /// Opens the store, running `migrationPlan` (``SchemaMigrator``) in the transaction that
    /// opens it: the data's changes, the custom stages' saves and the new schema record commit
    /// together or not at all.
    public convenience init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        let schema = configuration.schema ?? Schema()
        let path = configuration.isStoredInMemoryOnly ? ":memory:" : configuration.url.path
        let migrator = try SchemaMigrator(schema: schema, plan: migrationPlan, storeName: configuration.name)
        let layouts = try SQLiteHierarchy.layouts(for: schema, path: path)
        let opened = try SQLiteOpening.open(configuration, path: path)
        let storeIdentifier = try SQLiteMigrationTarget.migrate(opened, migrator, configuration: configuration, layouts: layouts, path: path)
        self.init(configuration: configuration, schema: schema, path: path, queue: opened.queue, storeIdentifier: storeIdentifier, layouts: layouts)
        if opened.isWritable && !configuration.isStoredInMemoryOnly {
            try SQLiteOpening.enableWAL(opened.queue, path: path)
        }
    }

    /// A store over a connection that is open already, such as a migration's.
    init(configuration: ModelConfiguration, schema: Schema, path: String, queue: DatabaseQueue, storeIdentifier: String,
         layouts: [SQLiteEntityLayout]) {
        self.configuration = configuration
        name = configuration.name
        self.schema = schema
        self.path = path
        self.layouts = EntityTable(layouts.map { ($0.entityName, $0) })
        resolver = KeyPathResolver(layouts: layouts)
        database = queue
        self.storeIdentifier = storeIdentifier
        scopes = EntityTable(self.layouts.names.map {
            ($0, IdentifierScope.of(entityName: $0, storeIdentifier: storeIdentifier))
        })
    }

    deinit {
        if let address = observedConnection.withLock({ $0 }) { ObservedConnections.remove(address: address) }
    }

    /// Removes every model from the store's tables. The store identifier stays, and keys are
    /// never reused, so identifiers handed out before do not come to name new models.
    public final func erase() throws {
        try requireWritable("erase")
        try write("Erasing the store") { db in
            for layout in layouts.values {
                try db.execute(sql: "DELETE FROM \(SQL.quote(layout.table.name))")
            }
        }
    }

    /// Nothing to prepare: the store keeps no state per context.
    public final func initializeState(for editingState: EditingState) {}
    /// Nothing to release: the store keeps no state per context.
    public final func invalidateState(for editingState: EditingState) {}

    /// Always empty: the store keeps no snapshot cache, so the context fetches what it lacks.
    public final func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultStore.Snapshot] {
        [:]
    }

    // MARK: Shared by the operations

    func layout(forEntity entityName: String) throws -> SQLiteEntityLayout {
        guard let layout = layouts[entityName] else {
            throw PersistenceError(.unknownEntity, "\(entityName) is not part of the schema of the store '\(name)' (\(path)); add its model type to that configuration's schema.")
        }
        return layout
    }

    func requireWritable(_ action: String) throws {
        guard configuration.allowsSave else {
            throw PersistenceError(.readOnly, "The store '\(name)' (\(path)) was configured with allowsSave: false, so it cannot \(action); create its ModelConfiguration with allowsSave: true to change it.")
        }
    }

    /// One write transaction that takes the lock at once (`BEGIN IMMEDIATE`), so a busy store makes
    /// the save wait for the busy timeout rather than fail when it first writes.
    ///
    /// `enforcingForeignKeys` false: SQLite's foreign-key enforcement is off for this transaction
    /// (switched around it, as switching is a no-op inside one), and `body` keeps the references.
    func write<T>(_ action: @autoclosure () -> String, enforcingForeignKeys: Bool = true,
                  _ body: (Database) throws -> T) throws -> T {
        try transaction(.immediate, action(), enforcingForeignKeys: enforcingForeignKeys, body)
    }

    /// One read transaction, GRDB's deferred one. Not GRDB's `read`: that switches
    /// `PRAGMA query_only` on and off around each read, and changing a flag pragma expires every
    /// prepared statement, so each read would re-prepare every cached statement it runs.
    func read<T>(_ action: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try onConnection(action()) { db in
            guard !db.isInsideTransaction else { return try body(db) }
            return try Self.committing(.deferred, db, body)
        }
    }

    /// One statement that reads: SQLite runs it against one snapshot of the database by itself,
    /// so it needs no `BEGIN` and `COMMIT` around it.
    func readOne<T>(_ action: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try onConnection(action(), body)
    }

    private func transaction<T>(_ kind: Database.TransactionKind, _ action: @autoclosure () -> String, enforcingForeignKeys: Bool = true,
                                _ body: (Database) throws -> T) throws -> T {
        try onConnection(action()) { db in
            func run() throws -> T { try Self.committing(kind, db, body) }
            guard !enforcingForeignKeys else { return try run() }
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let result: T
            do {
                result = try run()
            } catch {
                try? db.execute(sql: "PRAGMA foreign_keys = ON")
                throw error
            }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            return result
        }
    }

    /// `body` in GRDB's transaction of `kind`, committed, and its result. Inside a migration's
    /// transaction (`SQLiteMigrationTarget`) it is a savepoint of that one.
    static func committing<T>(_ kind: Database.TransactionKind, _ db: Database, _ body: (Database) throws -> T) throws -> T {
        var result: T?
        let operations = { () throws -> Database.TransactionCompletion in
            result = try body(db)
            return .commit
        }
        if db.isInsideTransaction {
            try db.inSavepoint(operations)
        } else {
            try db.inTransaction(kind, operations)
        }
        // GRDB commits only after `operations` returned, so the result is there.
        guard let result else { throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "A transaction committed without its result.") }
        return result
    }

    /// Every use of the connection: on GRDB's queue, with GRDB's errors named after the file.
    func onConnection<T>(_ action: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try SQLiteOpening.attempt(path, action()) { try database.writeWithoutTransaction(body) }
    }
}
