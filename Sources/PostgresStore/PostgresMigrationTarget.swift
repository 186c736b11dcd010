import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// PostgresStore's side of a `SchemaMigrator` run, on the connection that opens the store.
///
/// The open is one transaction holding an advisory lock: the store's own tables, every stage's
/// DDL (transactional in PostgreSQL), the saves of custom stages' contexts (savepoints in it,
/// through a ``PostgresStore`` lent the same connection) and the new `StoredSchema`. It commits
/// at the end or rolls back on any error, so a database that fails to migrate, or whose process
/// dies while it migrates, stays at exactly the version it had; a second process opening at
/// once waits for the lock, then finds the database migrated.
struct PostgresMigrationTarget: SchemaMigrationTarget {
    let configuration: PostgresStoreConfiguration
    /// A pool of the migration's connection alone, for custom stages' stores.
    let pool: PostgresConnectionPool
    let connection: PostgresConnection
    let identifier: String
    /// The store's own schema and layouts, reused when a stage ends at that schema.
    let schema: Schema
    let layouts: [String: PostgresEntityLayout]

    /// Opens the database for the migrator's schema and returns its store identifier. A
    /// migration's DDL can deadlock with other processes' saves; it is then rolled back and run
    /// again, as a conflicting save is.
    static func open(_ migrator: SchemaMigrator, configuration: PostgresStoreConfiguration,
                     layouts: [String: PostgresEntityLayout], pool: PostgresConnectionPool) throws -> String {
        try PostgresStore.retryingConflicts(pool) { connection in
            _ = try pool.run("SELECT pg_advisory_xact_lock(7001026)", on: connection)
            let metadata = PostgresMetadata(pool: pool, connection: connection)
            try metadata.createTables()
            let identifier = try metadata.storeIdentifier()
            let target = PostgresMigrationTarget(configuration: configuration, pool: PostgresConnectionPool(lending: connection, from: pool),
                                                 connection: connection, identifier: identifier, schema: migrator.schema, layouts: layouts)
            try migrator.migrate(target)
            return identifier
        }
    }

    func storedSchema() throws -> StoredSchema? {
        try PostgresMetadata(pool: pool, connection: connection).storedSchema()
    }

    func applySchemaChange(to schema: Schema, recording record: StoredSchema) throws {
        let layouts = schema === self.schema ? self.layouts : try PostgresStore.layouts(of: schema)
        let metadata = PostgresMetadata(pool: pool, connection: connection)
        let isChange = try metadata.storedSchema() != record
        try PostgresMigration(pool: pool, connection: connection, isSchemaChange: isChange).apply(PostgresEntityLayout.tables(of: layouts))
        if isChange { try metadata.writeStoredSchema(record) }
    }

    func migrationContainer(for schema: Schema) throws -> ModelContainer {
        var configuration = configuration
        configuration.schema = schema
        let layouts = schema === self.schema ? self.layouts : try PostgresStore.layouts(of: schema)
        return try ModelContainer(for: PostgresStore(configuration: configuration, schema: schema, layouts: layouts, pool: pool, identifier: identifier))
    }
}
