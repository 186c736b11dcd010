import GRDB
import OpenSwiftDataCore

/// The SQLite store's side of a ``SchemaMigrator`` run, on the connection that opens the store.
///
/// The whole run is one `BEGIN IMMEDIATE` transaction: every stage's table changes, the saves of
/// custom stages' contexts (savepoints inside it, through a ``DefaultStore`` over the same
/// connection), and the new ``StoredSchema``. It commits at the end or rolls back on any error,
/// so a store that fails to migrate, or whose process dies while it migrates, opens at exactly
/// the version it had. The transaction spans several uses of GRDB's queue (a custom stage's
/// context uses it between them), which is why the store's connections allow it to stay open.
struct SQLiteMigrationTarget: SchemaMigrationTarget {
    let queue: DatabaseQueue
    let configuration: ModelConfiguration
    let path: String
    let storeIdentifier: String
    /// The store's own schema and layouts, reused when a stage ends at that schema.
    let schema: Schema
    let layouts: [SQLiteEntityLayout]
    /// The record in the file as this run last read or wrote it, so that the run's last step,
    /// which mostly records what is already there, does not decode it again to find that out.
    private let recorded = RecordedSchema()

    /// Migrates the opened database and returns its store identifier. A read-only configuration
    /// migrates nothing: it opens a store that needs no stage and no change of tables, and
    /// refuses any other with `migrationRequired`.
    static func migrate(_ opened: SQLiteOpening.Opened, _ migrator: SchemaMigrator, configuration: ModelConfiguration,
                        layouts: [SQLiteEntityLayout], path: String) throws -> String {
        let queue = opened.queue
        guard opened.isWritable else {
            return try SQLiteOpening.attempt(path, "Opening the store") {
                try queue.read { db in
                    let stored = try SQLiteMetadata.storedSchema(db, path: path)
                    if let stored, !(try migrator.steps(from: stored)).isEmpty {
                        throw SQLiteMigration.migrationRequired(path, "it is at schema version \(stored.version) and the plan migrates it to \(migrator.currentVersion)")
                    }
                    return try SQLiteMigration.prepare(db, layouts: layouts, schemaVersion: migrator.currentVersion, path: path, isWritable: false).storeIdentifier
                }
            }
        }
        try SQLiteOpening.attempt(path, "Opening the store") {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION") }
        }
        do {
            let metadata = try SQLiteOpening.attempt(path, "Opening the store") {
                try queue.writeWithoutTransaction { db in
                    let metadata = try SQLiteMigration.openMetadata(db, path: path, isWritable: true)
                    // Before any stage: a custom stage's saves write history too.
                    try SQLiteHistory.createTables(db)
                    return metadata
                }
            }
            let target = SQLiteMigrationTarget(queue: queue, configuration: configuration, path: path, storeIdentifier: metadata.storeIdentifier,
                                               schema: migrator.schema, layouts: layouts)
            try migrator.migrate(target)
            try SQLiteOpening.attempt(path, "Committing the migration") {
                try queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT TRANSACTION") }
            }
            return metadata.storeIdentifier
        } catch {
            try? queue.writeWithoutTransaction { db in
                if db.isInsideTransaction { try db.execute(sql: "ROLLBACK TRANSACTION") }
            }
            throw error
        }
    }

    func storedSchema() throws -> StoredSchema? {
        let stored = try SQLiteOpening.attempt(path, "Reading the schema record") {
            try queue.writeWithoutTransaction { db in try SQLiteMetadata.storedSchema(db, path: path) }
        }
        recorded.value = .some(stored)
        return stored
    }

    func applySchemaChange(to schema: Schema, recording record: StoredSchema) throws {
        let layouts = schema === self.schema ? self.layouts : try SQLiteHierarchy.layouts(for: schema, path: path)
        try SQLiteOpening.attempt(path, "Migrating the store to schema version \(record.version)") {
            try queue.writeWithoutTransaction { db in
                _ = try SQLiteMigration.prepare(db, layouts: layouts, schemaVersion: record.version, path: path, isWritable: true)
                if case .some(let stored) = recorded.value, stored == record { return }
                try SQLiteMetadata.writeStoredSchema(record, db, path: path)
                recorded.value = .some(record)
            }
        }
    }

    func migrationContainer(for schema: Schema) throws -> ModelContainer {
        var configuration = configuration
        configuration.schema = schema
        let layouts = try SQLiteHierarchy.layouts(for: schema, path: path)
        return try ModelContainer(for: DefaultStore(configuration: configuration, schema: schema, path: path, queue: queue,
                                                    storeIdentifier: storeIdentifier, layouts: layouts))
    }
}

/// ``SQLiteMigrationTarget/storedSchema()``'s answer, kept by the target, whose methods do not mutate it.
private final class RecordedSchema {
    /// `.none` until read; `.some(nil)` for a store without a record.
    var value: StoredSchema??
}
