import Foundation

/// The storage engine of the in-memory stores: `DefaultSnapshot`s by entity and integer primary
/// key, with the save protocol every store follows (mint permanent identifiers, remap references,
/// apply updates, then deletes) done under one lock, so a save is all-or-nothing.
package final class SnapshotTable: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: [Int64: DefaultSnapshot]] = [:]
    private var nextKey: Int64 = 1

    package init() {}

    /// The entity's snapshots matching the descriptor, filtered, sorted and paged here (insertion
    /// order breaks ties); what cannot be translated goes back to the context as `preferInMemory…`.
    package func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        let query = try DataStoreQuery(descriptor, translator: ModelQueryResolution.translator(for: T.self))
        return try lock.withLock {
            let engine = SnapshotQueryEngine { identifier in
                guard case .integer(let key) = identifier.primaryKey else { return nil }
                return self.rows[identifier.entityName]?[key]
            }
            do {
                return try engine.run(query, over: ordered(query.entityName))
            } catch is QueryTranslationError {
                throw DataStoreError.preferInMemoryFilter
            }
        }
    }

    /// Deletes the entity's snapshots matching the predicate, in one step.
    package func delete<T: PersistentModel>(_ predicate: Predicate<T>?) throws {
        let matching = try fetch(FetchDescriptor<T>(predicate: predicate))
        lock.withLock {
            for snapshot in matching {
                if case .integer(let key) = snapshot.persistentIdentifier.primaryKey {
                    rows[snapshot.persistentIdentifier.entityName]?.removeValue(forKey: key)
                }
            }
        }
    }

    package func count(entityName: String) -> Int {
        lock.withLock { rows[entityName]?.count ?? 0 }
    }

    package func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, storeIdentifier: String) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try lock.withLock {
            var remap: [PersistentIdentifier: PersistentIdentifier] = [:]
            var key = nextKey
            for snapshot in request.inserted {
                remap[snapshot.persistentIdentifier] = PersistentIdentifier(
                    entityName: snapshot.persistentIdentifier.entityName, storeIdentifier: storeIdentifier, primaryKey: .integer(key))
                key += 1
            }
            var staged = rows
            for snapshot in request.inserted + request.updated {
                let identifier = remap[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                guard case .integer(let primaryKey) = identifier.primaryKey, identifier.storeIdentifier == storeIdentifier else {
                    throw PersistenceError(.invalidIdentifier, "\(identifier) does not belong to this store (\(storeIdentifier)); it cannot be updated here.")
                }
                staged[identifier.entityName, default: [:]][primaryKey] = snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remap)
            }
            for snapshot in request.deleted {
                if case .integer(let primaryKey) = snapshot.persistentIdentifier.primaryKey {
                    staged[snapshot.persistentIdentifier.entityName]?.removeValue(forKey: primaryKey)
                }
            }
            rows = staged
            nextKey = key
            return DataStoreSaveChangesResult(for: storeIdentifier, remappedIdentifiers: remap)
        }
    }

    package func erase() {
        lock.withLock { rows.removeAll() }
    }

    private func ordered(_ entityName: String) -> [DefaultSnapshot] {
        (rows[entityName] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }
}
