import Foundation
import OpenSwiftData

/// Store-neutral queries run on the archive with the same engine the typed fetches use.
extension JSONStore: QueryableDataStore {
    /// The snapshots matching a store-neutral query.
    public func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try lock.withLock {
            try reloadIfChanged()
            return try evaluate(query, in: archive)
        }
    }

    /// Deletes every model matching a store-neutral query, rewriting the file once.
    public func deleteModels(matching query: DataStoreQuery) throws {
        try deleteModels(matching: query, author: nil)
    }

    /// ``deleteModels(matching:)``, the history naming the context's author.
    public func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        try deleteModels(matching: query, author: editingState.author)
    }

    private func deleteModels(matching query: DataStoreQuery, author: String?) throws {
        let filter = DataStoreQuery(entityName: query.entityName, filter: query.filter)
        try write("delete") { archive in
            let doomed = try evaluate(filter, in: archive)
            archive.removeInBatch(Set(doomed.map(\.persistentIdentifier)))
            recordDeletes(doomed, author: author, in: &archive)
        }
    }
}
