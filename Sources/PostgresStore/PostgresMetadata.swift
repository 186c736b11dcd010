import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// The store's own tables beside the models': `osd_metadata` (the store identifier, the schema
/// record, the history's expiry mark), the idempotent-save receipts, the columns that have held
/// NaN, and the history's (``PostgresHistory``).
struct PostgresMetadata {
    let pool: PostgresConnectionPool
    let connection: PostgresConnection

    private static let identifierKey = "storeIdentifier"
    private static let schemaRecordKey = "schemaRecord"
    private var table: String { PostgresSQL.quote(PostgresSQL.metadataTable) }

    /// Creates the tables and the digest functions a store needs whatever its schema (they never
    /// change with it), those missing only: `CREATE INDEX IF NOT EXISTS` locks its table even when the index exists,
    /// and an open must not lock tables that other processes' saves are writing.
    func createTables() throws {
        let nan = TableDefinition(PostgresSQL.nanTable, columns: [ColumnDefinition("entity", .text), ColumnDefinition("property", .text)],
                                  primaryKey: ["entity", "property"], ifNotExists: true)
        let receipts = StoreTables.receipts(created: ColumnDefinition("created", .timestamp, defaultValue: "now()"))
        let relations: [(name: String, statement: String)] = [StoreTables.metadata(ifNotExists: true), receipts, nan].map {
            ($0.name, PostgreSQLDialect().render($0))
        } + PostgresHistory.relations
        let existing = try existingRelations()
        for relation in relations where !existing.contains(relation.name) { _ = try pool.run(relation.statement, on: connection) }
        for function in PostgresEntityLayout.digestFunctionStatements {
            var binds = PostgresBindings()
            binds.append(function.name)
            let present = try pool.run("SELECT 1 FROM pg_proc WHERE proname = $1 AND pronamespace = to_regnamespace(current_schema())", binds, on: connection)
            if present.isEmpty { _ = try pool.run(function.statement, on: connection) }
        }
    }

    /// The names of the tables and indexes in the store's schema (the search path's first).
    func existingRelations() throws -> Set<String> {
        let rows = try pool.run("SELECT relname::text FROM pg_class WHERE relnamespace = to_regnamespace(current_schema())", on: connection)
        return Set(try rows.map { try PostgresRandomAccessRow($0)[0].decode(String.self) })
    }

    /// The database's store identifier, minted by the first process that asks.
    func storeIdentifier() throws -> String {
        var binds = PostgresBindings()
        binds.append(Self.identifierKey)
        binds.append(UUID().uuidString)
        _ = try pool.run("INSERT INTO \(table) (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", binds, on: connection)
        guard let identifier = try value(Self.identifierKey) else {
            throw PostgresStoreError(.incompatibleSchema, "The database has no store identifier after writing one.")
        }
        return identifier
    }

    /// The schema record (`StoredSchema`); nil for a new database or one written before the
    /// store kept records.
    func storedSchema() throws -> StoredSchema? {
        guard let text = try value(Self.schemaRecordKey) else { return nil }
        do {
            return try JSONDecoder().decode(StoredSchema.self, from: Data(text.utf8))
        } catch {
            throw PostgresStoreError(.incompatibleSchema, "The database's schema record (\(PostgresSQL.metadataTable).\(Self.schemaRecordKey)) cannot be read (\(error)); it was not written by PostgresStore. Restore the database from a backup.")
        }
    }

    func writeStoredSchema(_ record: StoredSchema) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var binds = PostgresBindings()
        binds.append(Self.schemaRecordKey)
        binds.append(String(decoding: try encoder.encode(record), as: UTF8.self))
        _ = try pool.run("INSERT INTO \(table) (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", binds, on: connection)
    }

    private func value(_ key: String) throws -> String? {
        var binds = PostgresBindings()
        binds.append(key)
        let rows = try pool.run("SELECT value FROM \(table) WHERE key = $1", binds, on: connection)
        return try rows.first.map { try PostgresRandomAccessRow($0)[0].decode(String.self) }
    }
}
