import Foundation
import OpenSwiftData

/// The store's models in memory, in file order, with an index by identifier and each entity's
/// snapshots in a list of its own, and each model's encoded JSON once it has been written, so a
/// save re-encodes only what changed and a fetch reads its entity's list without copying it.
///
/// A value type: a save changes a copy and keeps it only once the file is written.
struct SnapshotArchive {
    private struct Entry {
        var snapshot: DefaultSnapshot
        var json: Data?
        /// The snapshot's place in its entity's list.
        var entityIndex = 0
    }

    /// File order; nil where a model was deleted (compacted when writing).
    private var entries: [Entry?] = []
    private var positions: [PersistentIdentifier: Int] = [:]
    private var positionsByEntity: [String: [Int]] = [:]
    /// Each entity's snapshots in file order, kept as snapshots are put; an entity a model was
    /// removed from is read through `positionsByEntity` until the next compaction (each save's).
    private var byEntity: [String: [DefaultSnapshot]] = [:]
    private var removedFrom: Set<String> = []
    /// The schema record the file keeps first, written with every save; nil for the seeds' files.
    var record: StoredSchema?
    /// The store's history, the file's last element; nil for a store that keeps none.
    var history: HistoryBook?

    init() {}

    /// Fails on a repeated identifier, since either copy may be the one the author meant.
    init(_ snapshots: [(snapshot: DefaultSnapshot, json: Data?)]) throws(DuplicateIdentifier) {
        entries.reserveCapacity(snapshots.count)
        positions.reserveCapacity(snapshots.count)
        for (index, element) in snapshots.enumerated() {
            if let earlier = positions[element.snapshot.persistentIdentifier] {
                throw DuplicateIdentifier(index: index, earlierIndex: earlier, identifier: element.snapshot.persistentIdentifier)
            }
            append(Entry(snapshot: element.snapshot, json: element.json))
        }
    }

    struct DuplicateIdentifier: Error {
        let index: Int
        let earlierIndex: Int
        let identifier: PersistentIdentifier
    }

    var count: Int { positions.count }

    subscript(identifier: PersistentIdentifier) -> DefaultSnapshot? {
        positions[identifier].flatMap { entries[$0]?.snapshot }
    }

    /// The entity's snapshots in file order.
    func snapshots(ofEntity entityName: String) -> [DefaultSnapshot] {
        guard removedFrom.contains(entityName) else { return byEntity[entityName] ?? [] }
        return (positionsByEntity[entityName] ?? []).compactMap { entries[$0]?.snapshot }
    }

    /// Replaces the model's snapshot in place, or appends it.
    mutating func put(_ snapshot: DefaultSnapshot, json: Data) {
        if let position = positions[snapshot.persistentIdentifier], let entityIndex = entries[position]?.entityIndex {
            entries[position] = Entry(snapshot: snapshot, json: json, entityIndex: entityIndex)
            byEntity[snapshot.persistentIdentifier.entityName]?[entityIndex] = snapshot
        } else {
            append(Entry(snapshot: snapshot, json: json))
        }
    }

    mutating func remove(_ identifier: PersistentIdentifier) {
        guard let position = positions.removeValue(forKey: identifier) else { return }
        entries[position] = nil
        removedFrom.insert(identifier.entityName)
    }

    /// Removes a batch delete's models, and the references other models hold to them
    /// (``DefaultSnapshot/removingReferences(to:info:)``), as the nullify of a save would: a later
    /// query on those relationships (`$0.trips.isEmpty`) sees them without the deleted models.
    /// The models changed are encoded again when the file is written.
    mutating func removeInBatch(_ gone: Set<PersistentIdentifier>) {
        guard !gone.isEmpty else { return }
        for identifier in gone { remove(identifier) }
        var infos: [String: ModelTypeInfo?] = [:]
        for index in entries.indices {
            guard let entry = entries[index] else { continue }
            let entityName = entry.snapshot.persistentIdentifier.entityName
            if infos[entityName] == nil { infos[entityName] = EntityRegistry.modelType(named: entityName).map(ModelTypeInfo.of) }
            guard let info = infos[entityName] ?? nil, !info.relationshipSlots.isEmpty,
                  let replaced = entry.snapshot.removingReferences(to: gone, info: info) else { continue }
            entries[index] = Entry(snapshot: replaced, json: nil, entityIndex: entry.entityIndex)
            byEntity[entityName]?[entry.entityIndex] = replaced
        }
    }

    /// The file's bytes. Encodes the snapshots read from the file on the first save, and drops
    /// the holes deletes left.
    mutating func encodedFile(with coder: ArchiveCoder) throws -> Data {
        if entries.count != positions.count { compact() }
        for index in entries.indices where entries[index]?.json == nil {
            entries[index]!.json = try coder.encode(entries[index]!.snapshot)
        }
        let head = try record.map { [try coder.encode($0)] } ?? []
        let tail = try history.map { [try coder.encode($0)] } ?? []
        guard !head.isEmpty || !tail.isEmpty else { return coder.file(entries.lazy.map { $0!.json! }, count: entries.count) }
        return coder.file(head + entries.lazy.map { $0!.json! } + tail, count: head.count + entries.count + tail.count)
    }

    private mutating func append(_ entry: Entry) {
        var entry = entry
        let position = entries.count
        let entityName = entry.snapshot.persistentIdentifier.entityName
        entry.entityIndex = byEntity[entityName]?.count ?? 0
        entries.append(entry)
        positions[entry.snapshot.persistentIdentifier] = position
        positionsByEntity[entityName, default: []].append(position)
        byEntity[entityName, default: []].append(entry.snapshot)
    }

    private mutating func compact() {
        let live = entries.compactMap { $0 }
        entries = []
        positions = [:]
        positionsByEntity = [:]
        byEntity = [:]
        removedFrom = []
        entries.reserveCapacity(live.count)
        for entry in live { append(entry) }
    }
}
