import Foundation
import GRDB
import OpenSwiftDataCore

extension DefaultStore {
    /// Deletes the models matching the predicate in one statement (all of the entity's when it is
    /// nil), and with `includeSubclasses` those of its subentities. A predicate SQL cannot express throws `DataStoreError.preferInMemoryFilter`, and the
    /// context deletes the matching models itself. The history records the delete, with the
    /// request's author.
    public final func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try deleteModels(matching: try translate(FetchDescriptor<T>(predicate: request.predicate), sorted: false),
                         author: request.editingState.author, includingSubentities: request.includeSubclasses)
    }

    /// Deletes rows by key. The foreign keys clear the to-ones that name a deleted row
    /// (`ON DELETE SET NULL`) and remove its join-table pairs (`ON DELETE CASCADE`), so no
    /// relationship names a deleted model.
    func deleteRows(_ keysByEntity: [String: [Int64]], db: Database) throws {
        for (entityName, keys) in keysByEntity where !keys.isEmpty {
            let table = try layout(forEntity: entityName).table
            let list = "[\(keys.map(String.init).joined(separator: ","))]"
            try db.execute(sql: "DELETE FROM \(SQL.quote(table.name)) WHERE \(SQL.quote(SQL.primaryKey)) IN (SELECT value FROM json_each(?))", arguments: [list])
        }
    }
}
