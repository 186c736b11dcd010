import Foundation
import GRDB
import OpenSwiftDataCore

extension DefaultStore {
    /// The ``StoredSchema`` the SQLite store file at `url` keeps, read without opening the store
    /// or migrating it; `nil` for a file with no record (written before stores kept one).
    ///
    /// Tools use it to say what opening the file with a plan would do:
    /// `try SchemaMigrator(schema: schema, plan: plan).steps(from: DefaultStore.storedSchema(at: url))`.
    /// Throws `SQLiteStoreError` when there is no file, or it is not a store.
    public static func storedSchema(at url: URL) throws -> StoredSchema? {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteStoreError(.cannotOpen, "There is no store file at \(path); check the path.", path: path)
        }
        return try SQLiteOpening.attempt(path, "Reading the schema record") {
            var configuration = GRDB.Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: path, configuration: configuration).read { db in
                try SQLiteMetadata.storedSchema(db, path: path)
            }
        }
    }
}
