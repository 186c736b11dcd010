import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// A `DataStore` on PostgreSQL, for models shared by several processes or machines.
///
/// ```swift
/// let configuration = try PostgresStoreConfiguration(url: "postgres://app@db.internal/trips")
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// ```
///
/// Each entity is a table (`Z_PK` key, one column per attribute, a foreign key per to-one), or
/// each class hierarchy (the root's table holds every subclass's rows, each naming its entity in
/// `Z_ENT`, so a relationship to a base class may hold a subclass's model); each many-to-many a
/// join table; `#Unique` constraints are unique indexes (over the SHA-256 digest of text and
/// `Data`, so values of any length fit), and an insert equal to a stored model on one updates
/// that model (`INSERT … ON CONFLICT`). Every process that opens the
/// database shares its store identifier, kept in the database, so identifiers are valid in all.
///
/// Predicates and sorts run in SQL through `SQLiteQueryRenderer` in the `PostgreSQLDialect()`
/// dialect. What that dialect cannot compute exactly as Swift does (a string's `contains` by
/// grapheme cluster, say) still runs in the store: SQL selects a superset of the rows, and Swift's
/// own semantics decide each one before the result is paged.
///
/// A save is one transaction: retried when it conflicts with a concurrent one (serialization
/// failure, deadlock), then refused with ``PostgresStoreError`` `.saveConflict`, leaving the
/// database as it was.
///
/// The store keeps the history of its saves (`HistoryProviding`, see <doc:History>) and runs
/// migration plans as it opens (<doc:Migrating>), each in the database's own transactions.
///
/// The calls are synchronous and block the calling thread on the store's own event loop; a call
/// made on an event-loop thread throws `.calledOnEventLoop` instead of waiting forever.
public final class PostgresStore: DataStore, DataStoreBatching, @unchecked Sendable {
    /// The configuration this store is opened with.
    public typealias Configuration = PostgresStoreConfiguration
    /// The snapshots this store reads and writes.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: PostgresStoreConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// The database's store identifier, the same for every process that opens it.
    public let identifier: String
    /// How many times a save that conflicts with a concurrent one is tried in all.
    public static let saveAttempts = 5

    let pool: PostgresConnectionPool
    let layouts: [String: PostgresEntityLayout]
    /// Translates the predicates of a hierarchy's entities, whose `as?` reads subclasses'
    /// properties (``ModelQueryResolution`` by type knows a type and what it refers to).
    let hierarchyTranslator: QueryTranslator
    /// Each entity's identifier scope in this store, looked up once: finding a scope by its
    /// names takes a process-wide lock and hashes both.
    let scopes: [String: IdentifierScope]
    /// The `SELECT`s rendered so far, by query shape.
    let selectPlans = QueryShapeCache<SelectVariant, ShapedStatement>()

    /// Connects and, in one transaction under an advisory lock (so processes opening the
    /// database at once migrate it once), creates the store's own tables, reads the store
    /// identifier (minting it on first use) and runs `migrationPlan` (`SchemaMigrator`),
    /// leaving the tables and the schema record at the current schema.
    ///
    /// - Throws: ``PostgresStoreError`` `.connectionFailed` when the server cannot be reached,
    ///   `.incompatibleSchema` for models it cannot store or a change lightweight migration
    ///   cannot make; `SwiftDataError.unknownSchema` or `.backwardMigration` for a database
    ///   written with a version the plan does not lead from. A failed open changes nothing.
    public convenience init(_ configuration: PostgresStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        let schema = configuration.schema ?? Schema()
        let migrator = try SchemaMigrator(schema: schema, plan: migrationPlan, storeName: configuration.name)
        let layouts = try Self.layouts(of: schema)
        let pool = try PostgresConnectionPool(configuration)
        let identifier = try PostgresMigrationTarget.open(migrator, configuration: configuration, layouts: layouts, pool: pool)
        pool.finishOpening()
        self.init(configuration: configuration, schema: schema, layouts: layouts, pool: pool, identifier: identifier)
    }

    /// A store over tables that are already there (a migration's own, or the opened database's).
    init(configuration: PostgresStoreConfiguration, schema: Schema, layouts: [String: PostgresEntityLayout],
         pool: PostgresConnectionPool, identifier: String) {
        self.configuration = configuration
        self.schema = schema
        self.layouts = layouts
        hierarchyTranslator = ModelQueryResolution.translator(for: schema)
        self.pool = pool
        self.identifier = identifier
        scopes = Dictionary(uniqueKeysWithValues: layouts.keys.map { ($0, IdentifierScope.of(entityName: $0, storeIdentifier: identifier)) })
    }

    static func layouts(of schema: Schema) throws -> [String: PostgresEntityLayout] {
        var layouts: [String: PostgresEntityLayout] = [:]
        for entity in schema.entities { layouts[entity.name] = try PostgresEntityLayout(entity: entity) }
        try PostgresEntityLayout.shareHierarchyTables(layouts)
        return layouts
    }

    /// Runs `body` in a transaction on `connection`, committing when it returns; inside a
    /// transaction the pool does not own (a migration's), in a savepoint released the same way
    /// and rolled back on an error, so the failure is the body's alone.
    static func transaction<Result>(_ pool: PostgresConnectionPool, _ connection: PostgresConnection, _ body: () throws -> Result) throws -> Result {
        guard pool.isInsideTransaction else {
            _ = try pool.run("BEGIN", on: connection)
            let result = try body()
            _ = try pool.run("COMMIT", on: connection)
            return result
        }
        _ = try pool.run("SAVEPOINT osd_save", on: connection)
        do {
            let result = try body()
            _ = try pool.run("RELEASE SAVEPOINT osd_save", on: connection)
            return result
        } catch {
            _ = try? pool.run("ROLLBACK TO SAVEPOINT osd_save", on: connection)
            throw error
        }
    }

    func layout(_ entityName: String) throws -> PostgresEntityLayout {
        guard let layout = layouts[entityName] else {
            throw PostgresStoreError(.incompatibleSchema, "The entity \(entityName) is not in this store's schema; add its model type to the configuration's Schema.")
        }
        return layout
    }

    /// The snapshots matching the request's descriptor, filtered, sorted and paged in SQL where
    /// the query translates.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try fetchSnapshots(try query(request.descriptor, sorted: true)))
    }

    /// The number of models matching the request's descriptor, counted in SQL.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetchCount(try query(request.descriptor, sorted: false))
    }

    /// The identifiers of the models matching the request's descriptor, in its order.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try fetchIdentifiers(try query(request.descriptor, sorted: true))
    }

    /// Deletes every model matching the request's predicate, in one statement.
    /// With `includeSubclasses`, the models of the entity's subentities too.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        var descriptor = FetchDescriptor<T>(predicate: request.predicate)
        descriptor.sortBy = []
        try deleteModels(matching: try query(descriptor, sorted: false), author: request.editingState.author,
                         includingSubentities: request.includeSubclasses)
    }

    /// Deletes every model of every entity of the schema (the tables stay).
    public func erase() throws {
        let tables = layouts.values.map(\.table) + layouts.values.flatMap { $0.columns.compactMap { $0.joinTable.map { PostgresSQL.quote($0.name) } } }
        try pool.withConnection { connection in
            _ = try pool.run("TRUNCATE \(Set(tables).sorted().joined(separator: ", ")) CASCADE", on: connection)
        }
    }

    /// The descriptor as a store-neutral query; what the translator refuses is left to the context.
    func query<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, sorted: Bool) throws -> DataStoreQuery {
        let entityName = Schema.entityName(for: T.self)
        let translator = layouts[entityName]?.hierarchy == nil ? ModelQueryResolution.translator(for: T.self) : hierarchyTranslator
        do {
            return try translator.translate(entityName: entityName, predicate: descriptor.predicate,
                                            sortBy: sorted ? descriptor.sortBy : [], fetchLimit: descriptor.fetchLimit,
                                            fetchOffset: descriptor.fetchOffset)
        } catch let error as QueryTranslationError {
            throw error.kind == .unsupportedSort ? DataStoreError.preferInMemorySort : DataStoreError.preferInMemoryFilter
        }
    }

    func identifier(_ entityName: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(scope: scope(of: entityName), primaryKey: .integer(key))
    }

    /// The identifier scope of the entity's models in this store.
    func scope(of entityName: String) -> IdentifierScope {
        scopes[entityName] ?? .of(entityName: entityName, storeIdentifier: identifier)
    }

    /// The stored key of an identifier of this store; nil for another store's or a temporary one.
    func key(of identifier: PersistentIdentifier) -> Int64? {
        guard identifier.storeIdentifier == self.identifier, case .integer(let key) = identifier.primaryKey else { return nil }
        return key
    }
}
