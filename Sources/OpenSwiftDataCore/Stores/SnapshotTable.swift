import Foundation

/// The storage engine of the in-memory stores: `DefaultSnapshot`s by entity and integer primary
/// key, with the save protocol every store follows (mint permanent identifiers, remap references,
/// apply updates, then deletes) done under one lock, so a save is all-or-nothing.
package final class SnapshotTable: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: EntityRows] = [:]
    private var nextKey: Int64 = 1

    package init() {}

    /// The entity's snapshots matching the descriptor, filtered, sorted and paged here (insertion
    /// order breaks ties); what cannot be translated goes back to the context as `preferInMemory…`.
    package func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        try fetch(try DataStoreQuery(descriptor))
    }

    /// The entity's snapshots matching a store-neutral query.
    package func fetch(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try lock.withLock {
            // The last entity looked up is kept: a `contains(where:)` reads the related models of
            // one entity, and each lookup by name hashed it and copied its rows' references.
            var last: (entityName: String, rows: EntityRows)?
            let engine = SnapshotQueryEngine(related: { identifier in
                guard case .integer(let key) = identifier.primaryKey else { return nil }
                if last?.entityName != identifier.entityName {
                    last = self.rows[identifier.entityName].map { (identifier.entityName, $0) }
                }
                return last?.rows[key]
            }, entitySnapshots: { self.rows[$0]?.liveSnapshots ?? [] })
            guard let live = rows[query.entityName]?.live() else { return [] }
            return try engine.run(query, over: live)
        }
    }

    /// Deletes the entity's snapshots matching the predicate, in one step.
    package func delete<T: PersistentModel>(_ predicate: Predicate<T>?) throws {
        try delete(try DataStoreQuery(FetchDescriptor<T>(predicate: predicate)))
    }

    /// Deletes the entity's snapshots matching the query's filter.
    package func delete(_ query: DataStoreQuery) throws {
        let matching = try fetch(DataStoreQuery(entityName: query.entityName, filter: query.filter))
        guard !matching.isEmpty else { return }
        lock.withLock {
            for snapshot in matching {
                if case .integer(let key) = snapshot.persistentIdentifier.primaryKey {
                    rows[snapshot.persistentIdentifier.entityName]?.remove(key, compacting: false)
                }
            }
            rows[query.entityName]?.compactIfSparse()
            forget(Set(matching.map(\.persistentIdentifier)))
        }
    }

    /// The stored models that referred to models a batch delete removed let go of them, as the
    /// store of a save's nullify would (``DefaultSnapshot/removingReferences(to:info:)``).
    private func forget(_ gone: Set<PersistentIdentifier>) {
        for entityName in Array(rows.keys) {
            guard let type = EntityRegistry.modelType(named: entityName) else { continue }
            let info = ModelTypeInfo.of(type)
            guard !info.relationshipSlots.isEmpty else { continue }
            rows[entityName]?.replaceEach { $0.removingReferences(to: gone, info: info) }
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
            var uniqueIndex = UniqueIndex()
            for snapshot in request.inserted {
                let entityName = snapshot.persistentIdentifier.entityName
                // SwiftData's upsert: an insert that collides on a unique constraint with a saved
                // model, or with an earlier insert of this save, becomes an update of that model.
                if let existing = uniqueIndex.match(snapshot, in: rows[entityName] ?? EntityRows()) {
                    remap[snapshot.persistentIdentifier] = PersistentIdentifier(
                        entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: .integer(existing))
                    continue
                }
                remap[snapshot.persistentIdentifier] = PersistentIdentifier(
                    entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: .integer(key))
                uniqueIndex.add(snapshot, key: key)
                key += 1
            }
            var writes: [(identifier: PersistentIdentifier, key: Int64, snapshot: DefaultSnapshot)] = []
            writes.reserveCapacity(request.inserted.count + request.updated.count)
            for snapshot in request.inserted + request.updated {
                let identifier = remap[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                guard case .integer(let primaryKey) = identifier.primaryKey, identifier.storeIdentifier == storeIdentifier else {
                    throw PersistenceError(.invalidIdentifier, "\(identifier) does not belong to this store (\(storeIdentifier)); it cannot be updated here.")
                }
                writes.append((identifier, primaryKey, snapshot))
            }
            // An update cannot merge two stored models: a save that updates an entity with a
            // unique constraint is applied to a copy of the rows, checked, and kept only when no
            // two rows collide, so that a collision fails the whole save. Every other save is
            // applied in place: copying all rows on each save made a run of small saves quadratic.
            let checked = Set(request.updated.map(\.persistentIdentifier.entityName)).filter { uniqueIndex.hasConstraints($0) }
            if checked.isEmpty {
                Self.apply(writes, deleting: request.deleted, remap: remap, to: &rows)
            } else {
                var staged = rows
                Self.apply(writes, deleting: request.deleted, remap: remap, to: &staged)
                for entityName in checked {
                    var index = UniqueIndex()
                    try index.verify(staged[entityName] ?? EntityRows(), entityName: entityName)
                }
                rows = staged
            }
            nextKey = key
            return DataStoreSaveChangesResult(for: storeIdentifier, remappedIdentifiers: remap)
        }
    }

    private static func apply(_ writes: [(identifier: PersistentIdentifier, key: Int64, snapshot: DefaultSnapshot)], deleting deleted: [DefaultSnapshot],
                              remap: [PersistentIdentifier: PersistentIdentifier], to rows: inout [String: EntityRows]) {
        for write in writes {
            rows[write.identifier.entityName, default: EntityRows()].put(write.snapshot.copy(persistentIdentifier: write.identifier, remappedIdentifiers: remap), key: write.key)
        }
        for snapshot in deleted {
            if case .integer(let primaryKey) = snapshot.persistentIdentifier.primaryKey {
                rows[snapshot.persistentIdentifier.entityName]?.remove(primaryKey)
            }
        }
    }

    package func erase() {
        lock.withLock { rows.removeAll() }
    }
}

/// One entity's snapshots in key order (the order they were inserted in, as keys only grow), with
/// their positions by key: a fetch reads them in order without sorting every key first.
///
/// The snapshots are one dense array, handed to a fetch as it is: iterating a copy of each would
/// retain and release every row, kept or not. A removal leaves its snapshot in place, marked; the
/// next fetch, or a batch of removals at its end, compacts them all at once.
private struct EntityRows {
    private var snapshots: [DefaultSnapshot] = []
    private var keys: [Int64] = []
    private var positions: [Int64: Int] = [:]
    /// Positions whose snapshot was removed, not yet compacted.
    private var removed: Set<Int> = []

    var count: Int { positions.count }

    subscript(key: Int64) -> DefaultSnapshot? {
        positions[key].map { snapshots[$0] }
    }

    /// The live snapshots in key order; compacts first when some were removed.
    mutating func live() -> [DefaultSnapshot] {
        compact()
        return snapshots
    }

    /// The live snapshots in key order, without compacting (for a copy about to be replaced).
    var liveSnapshots: [DefaultSnapshot] {
        guard !removed.isEmpty else { return snapshots }
        return snapshots.indices.filter { !removed.contains($0) }.map { snapshots[$0] }
    }

    /// The live snapshots with their keys, in key order.
    var keyed: [(key: Int64, snapshot: DefaultSnapshot)] {
        snapshots.indices.filter { !removed.contains($0) }.map { (keys[$0], snapshots[$0]) }
    }

    /// Replaces each live snapshot `transform` gives a new version of, in place.
    mutating func replaceEach(_ transform: (DefaultSnapshot) -> DefaultSnapshot?) {
        for position in snapshots.indices where !removed.contains(position) {
            if let replaced = transform(snapshots[position]) { snapshots[position] = replaced }
        }
    }

    mutating func put(_ snapshot: DefaultSnapshot, key: Int64) {
        if let position = positions[key] {
            snapshots[position] = snapshot
        } else if let last = lastLiveKey, key < last {
            // A key below the last one (a model the save re-creates): placed in key order.
            compact()
            let position = keys.firstIndex { $0 > key } ?? keys.endIndex
            snapshots.insert(snapshot, at: position)
            keys.insert(key, at: position)
            rebuildPositions()
        } else {
            positions[key] = snapshots.count
            snapshots.append(snapshot)
            keys.append(key)
        }
    }

    private var lastLiveKey: Int64? {
        var position = keys.count - 1
        while position >= 0, removed.contains(position) { position -= 1 }
        return position >= 0 ? keys[position] : nil
    }

    /// Removes the key's snapshot; `compacting: false` leaves it marked for a batch of removals
    /// to compact once (``compactIfSparse()``).
    mutating func remove(_ key: Int64, compacting: Bool = true) {
        guard let position = positions.removeValue(forKey: key) else { return }
        removed.insert(position)
        if compacting { compactIfSparse() }
    }

    mutating func compactIfSparse() {
        if snapshots.count > 64, removed.count * 2 > snapshots.count { compact() }
    }

    private mutating func compact() {
        guard !removed.isEmpty else { return }
        var kept = 0
        for position in snapshots.indices where !removed.contains(position) {
            if kept != position {
                snapshots.swapAt(kept, position)
                keys.swapAt(kept, position)
            }
            kept += 1
        }
        snapshots.removeLast(snapshots.count - kept)
        keys.removeLast(keys.count - kept)
        removed = []
        rebuildPositions()
    }

    private mutating func rebuildPositions() {
        positions = [:]
        positions.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { positions[key] = position }
    }
}

extension PersistenceError.Code {
    /// A save would give two models the same values for a unique constraint.
    public static let uniqueConstraintViolation = PersistenceError.Code(rawValue: "uniqueConstraintViolation")
}

/// The unique constraints of the entities one save touches, indexed by their key values: built
/// lazily per entity from the stored rows, then kept up to date with the save's own inserts.
private struct UniqueIndex {
    private var constraints: [String: [[String]]] = [:]
    private var keys: [String: [[QueryValue]: Int64]] = [:]

    mutating func match(_ snapshot: DefaultSnapshot, in rows: EntityRows) -> Int64? {
        let entityName = snapshot.persistentIdentifier.entityName
        prepare(entityName, rows: rows)
        for key in constraintKeys(of: snapshot) {
            if let existing = keys[entityName]?[key] { return existing }
        }
        return nil
    }

    mutating func add(_ snapshot: DefaultSnapshot, key: Int64) {
        for value in constraintKeys(of: snapshot) {
            keys[snapshot.persistentIdentifier.entityName, default: [:]][value] = key
        }
    }

    /// Whether the entity has a unique constraint.
    mutating func hasConstraints(_ entityName: String) -> Bool {
        prepareConstraints(entityName)
        return constraints[entityName]?.isEmpty == false
    }

    /// Throws when two rows share the key of one unique constraint.
    mutating func verify(_ rows: EntityRows, entityName: String) throws {
        prepareConstraints(entityName)
        // Most entities have no constraint: nothing to compare, row by row.
        guard constraints[entityName]?.isEmpty == false else { return }
        var seen: Set<[QueryValue]> = []
        for row in rows.liveSnapshots {
            for key in constraintKeys(of: row) where !seen.insert(key).inserted {
                let names = constraints[entityName]?[position(of: key)] ?? []
                throw PersistenceError(.uniqueConstraintViolation,
                    "The save would give two \(entityName) models the same \(names.joined(separator: ", ")), which must be unique; nothing was saved. Change one of them, or delete one, then save again.")
            }
        }
    }

    private func position(of key: [QueryValue]) -> Int {
        if case .integer(let position) = key[0] { return Int(position) }
        return 0
    }

    private mutating func prepareConstraints(_ entityName: String) {
        guard constraints[entityName] == nil else { return }
        constraints[entityName] = EntityRegistry.modelType(named: entityName).map { ModelTypeInfo.of($0).uniquenessConstraints } ?? []
    }

    private mutating func prepare(_ entityName: String, rows: EntityRows) {
        guard constraints[entityName] == nil else { return }
        prepareConstraints(entityName)
        guard constraints[entityName]?.isEmpty == false else { return }
        for (key, row) in rows.keyed { add(row, key: key) }
    }

    /// One key per constraint, tagged with the constraint's position; none for a constraint on
    /// which the snapshot holds nil (nil never collides, as with SQL's UNIQUE).
    private func constraintKeys(of snapshot: DefaultSnapshot) -> [[QueryValue]] {
        guard let constraints = constraints[snapshot.persistentIdentifier.entityName], !constraints.isEmpty else { return [] }
        return constraints.enumerated().compactMap { position, names in
            var key: [QueryValue] = [.integer(Int64(position))]
            for name in names {
                guard let raw = snapshot.values[name]?.value else { return nil }
                let converted = QueryValue(exactly: raw) ?? unwrapOptional(raw).flatMap { QueryValue(converting: $0) }
                guard let converted, converted != .null else { return nil }
                key.append(converted)
            }
            return key
        }
    }
}
