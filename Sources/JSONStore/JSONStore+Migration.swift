import Foundation
import OpenSwiftData

extension JSONStore {
    /// Runs `plan` (``SchemaMigrator``) on the file, holding its lock, before it is first read.
    /// Returns the record a new store writes with its first save.
    ///
    /// The migration works on a copy of the file's bytes and replaces the file once, crash-safely,
    /// at the end: killed or failed at any point, the file is exactly the old version or the new
    /// one. Custom stages' contexts save into a working copy beside it (`.<file>.migrating`),
    /// removed afterwards. A file without a record opened without a plan (the seeds' files) is
    /// read as it is, untouched.
    func migrate(_ plan: (any SchemaMigrationPlan.Type)?) throws -> StoredSchema? {
        let migrator = try SchemaMigrator(schema: schema, plan: plan, storeName: configuration.name)
        let scratch = JSONMigrationTarget.scratchURL(of: url)
        JSONMigrationTarget.remove(scratch)
        guard let file = try StoreFileReader.read(url, coder.record(in:)) else {
            return plan == nil ? nil : StoredSchema(schema, version: migrator.currentVersion)
        }
        let stored = file.value
        guard plan != nil || stored != nil else { return nil }
        let target = JSONMigrationTarget(store: self, scratch: scratch, stored: stored, bytes: file.bytes)
        defer { JSONMigrationTarget.remove(scratch) }
        try migrator.migrate(target)
        guard let bytes = try target.finishedFile() else { return nil }
        do throws(DurableFile.ReplaceFailure) {
            _ = try DurableFile.replace(url, with: bytes)
        } catch .notReplaced(let error) {
            throw JSONStoreError(.ioFailure, "Writing the migrated \(url.path) failed: \(error). \(error.advice) The previous file is intact.", url: url, underlying: error)
        } catch .notSynced(let error, _) {
            throw JSONStoreError(.notSynced, "The migrated \(url.path) is in place, but syncing its directory failed (\(error)), so a power loss may bring back the previous version. \(error.advice) Opening the store again finishes the migration either way.", url: url, underlying: error)
        }
        return nil
    }
}
