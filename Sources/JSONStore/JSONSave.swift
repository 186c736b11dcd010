import Foundation
import OpenSwiftData

/// The work of one save on a staged copy of the archive.
struct JSONSave {
    let store: JSONStore
    private(set) var archive: SnapshotArchive
    private var remap: [PersistentIdentifier: PersistentIdentifier] = [:]
    /// Per entity and constraint: the constraint's values of the models inserted so far → their identifier.
    private var insertedUniqueValues: [String: [Int: [[UniqueValue]: PersistentIdentifier]]] = [:]
    /// Per entity and constraint: the stored models' values, built once per save when needed.
    private var storedUniqueValues: [String: [Int: [[UniqueValue]: PersistentIdentifier]]] = [:]

    init(store: JSONStore, archive: SnapshotArchive) {
        self.store = store
        self.archive = archive
    }

    mutating func run(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier: PersistentIdentifier] {
        for snapshot in [request.inserted, request.updated].joined() {
            if let problem = StorableValues.problem(in: snapshot) {
                throw JSONStoreError(.invalidValue, "\(problem). Nothing was saved.", url: store.url)
            }
        }
        for snapshot in request.deleted { archive.remove(snapshot.persistentIdentifier) }

        var targets: [(DefaultSnapshot, PersistentIdentifier)] = []
        for snapshot in request.inserted {
            let target = try target(of: snapshot)
            if snapshot.persistentIdentifier != target { remap[snapshot.persistentIdentifier] = target }
            targets.append((snapshot, target))
        }
        let inserted = Set(targets.map(\.1))
        var stored: [DefaultSnapshot] = []
        stored.reserveCapacity(request.updated.count + targets.count)
        for snapshot in request.updated {
            let identifier = snapshot.persistentIdentifier
            guard archive[identifier] != nil || identifier.storeIdentifier == store.identifier else {
                throw JSONStoreError(.invalidReference, "An updated \(identifier.entityName) (\(identifier)) is not in this store; it was deleted by another context or process, or belongs to another store. Fetch it again before changing it.", url: store.url)
            }
            stored.append(snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remap))
        }
        for (snapshot, target) in targets {
            stored.append(snapshot.copy(persistentIdentifier: target, remappedIdentifiers: remap))
        }
        // Encoded only once every copy is made: the copies' values then lie side by side in
        // memory, not each between JSON texts, and a query over thousands of them reads them faster.
        for snapshot in stored { try put(snapshot) }
        try checkReferences(in: request, inserted: inserted)
        try checkUniqueness(of: Set((request.inserted + request.updated).map(\.persistentIdentifier.entityName)))
        return remap
    }

    private mutating func put(_ snapshot: DefaultSnapshot) throws {
        do {
            archive.put(snapshot, json: try store.coder.encode(snapshot))
        } catch {
            throw JSONStoreError(.invalidValue, "The \(snapshot.persistentIdentifier.entityName) cannot be encoded as JSON (\(error)); its properties must be Codable. Nothing was saved.", url: store.url, underlying: error)
        }
    }

    // MARK: Identifiers

    /// An identifier with a new random key (see ``ModelKey``) that no stored model has.
    private func newIdentifier(_ entityName: String) -> PersistentIdentifier {
        while true {
            let identifier = PersistentIdentifier(entityName: entityName, storeIdentifier: store.identifier, primaryKey: .string(ModelKey.random()))
            if archive[identifier] == nil { return identifier }
        }
    }

    /// The identifier an inserted snapshot is stored under: the model it equals on a uniqueness
    /// constraint (inserted earlier in this save, or stored), else a new one with a new random key.
    private mutating func target(of snapshot: DefaultSnapshot) throws -> PersistentIdentifier {
        let identifier = snapshot.persistentIdentifier
        let entityName = identifier.entityName
        guard identifier.storeIdentifier == nil else { return identifier }
        let constraints = uniqueValues(of: snapshot)
        var found: PersistentIdentifier?
        for (index, values) in constraints {
            if let earlier = insertedUniqueValues[entityName]?[index]?[values] { found = earlier; break }
            if let stored = stored(entityName, constraint: index)[values] { found = stored; break }
        }
        let resolved = found ?? newIdentifier(entityName)
        for (index, values) in constraints { insertedUniqueValues[entityName, default: [:]][index, default: [:]][values] = resolved }
        return resolved
    }

    private mutating func stored(_ entityName: String, constraint index: Int) -> [[UniqueValue]: PersistentIdentifier] {
        if let known = storedUniqueValues[entityName]?[index] { return known }
        var table: [[UniqueValue]: PersistentIdentifier] = [:]
        for row in archive.snapshots(ofEntity: entityName) {
            if let values = uniqueValues(of: row, constraint: index) { table[values] = row.persistentIdentifier }
        }
        storedUniqueValues[entityName, default: [:]][index] = table
        return table
    }

    // MARK: Checks

    /// Every reference must name a model of this store once the save is applied (a temporary
    /// identifier is only found when the file holds it, as the blog store's files do).
    private func checkReferences(in request: DataStoreSaveChangesRequest<DefaultSnapshot>, inserted: Set<PersistentIdentifier>) throws {
        for snapshot in request.inserted + request.updated {
            for (name, value) in snapshot.values {
                for reference in Self.identifiers(in: value.value) {
                    let resolved = remap[reference] ?? reference
                    guard resolved.isTemporary, archive[resolved] == nil, !inserted.contains(resolved) else { continue }
                    throw JSONStoreError(.invalidReference, "\(snapshot.persistentIdentifier.entityName).\(name) refers to a \(resolved.entityName) that is neither stored nor inserted in this save. Insert the related model into the same context before saving.", url: store.url)
                }
            }
        }
    }

    /// After an update, two stored models may equal each other on a constraint; that save is refused.
    private func checkUniqueness(of entityNames: Set<String>) throws {
        for entityName in entityNames {
            let constraints = store.schema.entitiesByName[entityName]?.uniquenessConstraints ?? []
            for (index, properties) in constraints.enumerated() {
                var seen: Set<[UniqueValue]> = []
                for row in archive.snapshots(ofEntity: entityName) {
                    guard let values = uniqueValues(of: row, constraint: index), !seen.insert(values).inserted else { continue }
                    throw JSONStoreError(.uniqueConstraintViolation, "Two \(entityName) models would have equal \(properties.joined(separator: ", ")), which must be unique. An update cannot merge models; change one of them, or delete the duplicate before saving. Nothing was saved.", url: store.url)
                }
            }
        }
    }

    // MARK: Values

    private func uniqueValues(of snapshot: DefaultSnapshot) -> [(Int, [UniqueValue])] {
        let count = store.schema.entitiesByName[snapshot.persistentIdentifier.entityName]?.uniquenessConstraints.count ?? 0
        return (0..<count).compactMap { index in uniqueValues(of: snapshot, constraint: index).map { (index, $0) } }
    }

    /// The snapshot's values on one constraint; nil when one is nil, as SQL's UNIQUE lets NULLs repeat.
    private func uniqueValues(of snapshot: DefaultSnapshot, constraint index: Int) -> [UniqueValue]? {
        guard let properties = store.schema.entitiesByName[snapshot.persistentIdentifier.entityName]?.uniquenessConstraints[index] else { return nil }
        var values: [UniqueValue] = []
        for property in properties {
            guard let raw = snapshot.values[property]?.value, let value = UniqueValue(raw) else { return nil }
            values.append(value)
        }
        return values
    }

    static func identifiers(in value: Any) -> [PersistentIdentifier] {
        guard let present = unwrapOptional(value) else { return [] }
        if let identifier = present as? PersistentIdentifier { return [identifier] }
        return present as? [PersistentIdentifier] ?? []
    }
}

/// A property value compared for uniqueness: its query form when it has one (so `1.0 == 1`
/// compares as Swift would), else its description.
struct UniqueValue: Hashable {
    private let query: QueryValue?
    private let text: String?

    init?(_ raw: Any) {
        guard let value = unwrapOptional(raw) else { return nil }
        if let convertible = value as? any QueryValueConvertible {
            query = convertible.queryValue
            text = nil
        } else if let raw = (value as? any RawRepresentable)?.rawValue as? any QueryValueConvertible {
            query = raw.queryValue
            text = nil
        } else {
            query = nil
            text = String(reflecting: value)
        }
    }
}
