import Foundation

/// The storage engine of the in-memory stores: `DefaultSnapshot`s by entity and integer primary
/// key, with the save protocol every store follows (mint permanent identifiers, remap references,
/// apply updates, then deletes) done under one lock, so a save is all-or-nothing.
package final class SnapshotTable: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: [Int64: DefaultSnapshot]] = [:]
    private var nextKey: Int64 = 1

    package init() {}

    /// The entity's snapshots in insertion order, offset and limited; refuses predicates and sorts
    /// so the context evaluates them.
    package func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        if descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let all = lock.withLock { ordered(Schema.entityName(for: T.self)) }
        return Array(all.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? Int.max))
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

    package func deleteAll(entityName: String) {
        lock.withLock { _ = rows.removeValue(forKey: entityName) }
    }

    package func erase() {
        lock.withLock { rows.removeAll() }
    }

    private func ordered(_ entityName: String) -> [DefaultSnapshot] {
        (rows[entityName] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }
}
