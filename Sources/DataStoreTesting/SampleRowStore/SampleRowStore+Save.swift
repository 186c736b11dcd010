import OpenSwiftData

extension SampleRowStore {
    /// Applies a save whole or not at all: everything that can fail is checked before the first
    /// table changes. Answers each insert's permanent identifier, in order.
    func write(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        try lock.withLock {
            var key = nextKey
            var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
            var permanents: [PersistentIdentifier] = []
            permanents.reserveCapacity(request.inserted.count)
            for snapshot in request.inserted {
                let identifier = snapshot.persistentIdentifier
                guard identifier.storeIdentifier != self.identifier else {
                    permanents.append(identifier)
                    continue
                }
                let permanent = try PersistentIdentifier.identifier(for: self.identifier, entityName: identifier.entityName, primaryKey: key)
                key += 1
                remapped[identifier] = permanent
                permanents.append(permanent)
            }
            var writes: [DefaultSnapshot] = []
            writes.reserveCapacity(request.inserted.count + request.updated.count)
            for snapshots in [request.inserted, request.updated] {
                for snapshot in snapshots {
                    let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                    guard identifier.storeIdentifier == self.identifier else {
                        throw SampleRowStoreError(message: "\(identifier) belongs to another store; save it through the container of its own store.")
                    }
                    // An update that refers to no new model is kept as it is: no copy of its values.
                    // The context relies on this rewrite, as the store adopts `DataStoreRemapping`.
                    let references = configuration.fault == .keepsTemporaryReferences ? nil : remapped
                    writes.append(remapped.isEmpty ? snapshot : snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: references))
                }
            }
            for snapshot in writes { tables[snapshot.persistentIdentifier.entityName, default: SampleRowTable()].put(snapshot) }
            var doomed: [String: Set<PersistentIdentifier>] = [:]
            for snapshot in request.deleted { doomed[snapshot.persistentIdentifier.entityName, default: []].insert(snapshot.persistentIdentifier) }
            for (entityName, identifiers) in doomed { tables[entityName]?.remove(identifiers) }
            nextKey = key
            return permanents
        }
    }
}

/// A save the sample row store refuses, and why.
public struct SampleRowStoreError: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public let message: String

    /// The message.
    public var description: String { message }
}
