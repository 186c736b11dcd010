import Foundation
import OpenSwiftDataCore
import PostgresNIO

extension PostgresStore {
    /// The `StoredSchema` the database of `configuration` keeps, read without opening the
    /// store or migrating it; `nil` for a database with no record (new, or written before the
    /// store kept one).
    ///
    /// Tools use it to say what opening the database with a plan would do:
    /// `try SchemaMigrator(schema: schema, plan: plan).steps(from: PostgresStore.storedSchema(configuration))`.
    /// Throws ``PostgresStoreError`` `.connectionFailed` when the server cannot be reached.
    public static func storedSchema(_ configuration: PostgresStoreConfiguration) throws -> StoredSchema? {
        let pool = try PostgresConnectionPool(configuration)
        pool.finishOpening()
        return try pool.withConnection { connection in
            var binds = PostgresBindings()
            binds.append(PostgresSQL.quote(PostgresSQL.metadataTable))
            let exists = try pool.run("SELECT to_regclass($1) IS NOT NULL", binds, on: connection)
            guard try PostgresRandomAccessRow(exists[0])[0].decode(Bool.self) else { return nil }
            return try PostgresMetadata(pool: pool, connection: connection).storedSchema()
        }
    }
}
