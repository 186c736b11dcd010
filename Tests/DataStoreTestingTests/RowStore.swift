import Foundation
import OpenSwiftData

/// Configures a ``RowStore``. `counts` is shared with the test that made it, so the test can see
/// which way the context reached the store; `fault` turns it into a broken store; with
/// `defersToMany`, rows leave to-many relationships to be read when first read.
final class RowStoreConfiguration: DataStoreConfiguration {
    typealias Store = RowStore

    var name: String
    var schema: Schema?
    let counts: RowStore.Counts
    let fault: RowStore.Fault?
    let defersToMany: Bool

    init(name: String, schema: Schema? = nil, counts: RowStore.Counts = RowStore.Counts(), fault: RowStore.Fault? = nil,
         defersToMany: Bool = false) {
        self.name = name
        self.schema = schema
        self.counts = counts
        self.fault = fault
        self.defersToMany = defersToMany
    }

    static func == (lhs: RowStoreConfiguration, rhs: RowStoreConfiguration) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A custom store written outside the library, as a store author would: it keeps the snapshots
/// it is given in memory, in the order they were first saved, leaves filters and sorts to the
/// context, and speaks rows to contexts through `DataStoreRowAccess`.
final class RowStore: DataStore, DataStoreRowAccess {
    typealias Configuration = RowStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    /// How often each entry point was called.
    final class Counts: @unchecked Sendable {
        var fetches = 0
        var rowFetches = 0
        var saves = 0
        var rowSaves = 0
        /// Reads of a to-many relationship left for later, one per relationship and fetch.
        var toManyLoads = 0
    }

    /// A bug to show the context's answer to.
    enum Fault {
        /// Rows one value short.
        case shortRows
        /// No identifier for the last insert of a save.
        case missingIdentifier
    }

    let configuration: RowStoreConfiguration
    let schema: Schema
    let identifier = "RowStore-\(UUID().uuidString)"
    private var order: [PersistentIdentifier] = []
    private var stored: [PersistentIdentifier: DefaultSnapshot] = [:]
    private var nextKey = 1

    init(_ configuration: RowStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        configuration.counts.fetches += 1
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try matching(request.descriptor))
    }

    func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        configuration.counts.rowFetches += 1
        let layout = DataStoreRowLayout(for: T.self)
        let short = configuration.fault == .shortRows
        let rows = try matching(descriptor).map {
            DataStoreRow(persistentIdentifier: $0.persistentIdentifier, values: short ? Array(layout.values(of: $0).dropLast()) : layout.values(of: $0))
        }
        return configuration.defersToMany ? deferringToMany(rows, layout) : rows
    }

    /// `rows` with each to-many left to be read, for all of them at once, when first read.
    private func deferringToMany(_ rows: [DataStoreRow], _ layout: DataStoreRowLayout) -> [DataStoreRow] {
        var rows = rows
        let owners = rows.map(\.persistentIdentifier)
        let toMany = schema.entitiesByName[layout.entityName]?.relationships.filter { !$0.isToOneRelationship } ?? []
        for relationship in toMany {
            guard let slot = layout.index(ofProperty: relationship.name) else { continue }
            let group = DataStoreDeferredToMany(relationship: "\(layout.entityName).\(relationship.name)") { [weak self] in
                guard let self else { throw RowStoreError(message: "the store was closed") }
                configuration.counts.toManyLoads += 1
                var related: [PersistentIdentifier: [PersistentIdentifier]] = [:]
                for owner in owners {
                    related[owner] = stored[owner].flatMap { layout.values(of: $0)[slot] as? [PersistentIdentifier] } ?? []
                }
                return related
            }
            for index in rows.indices { rows[index].values[slot] = group.reference(for: rows[index].persistentIdentifier) }
        }
        return rows
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        configuration.counts.saves += 1
        let permanents = try write(request)
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for (snapshot, permanent) in zip(request.inserted, permanents) where snapshot.persistentIdentifier != permanent {
            remapped[snapshot.persistentIdentifier] = permanent
        }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }

    func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        configuration.counts.rowSaves += 1
        let permanents = try write(request)
        return configuration.fault == .missingIdentifier ? Array(permanents.dropLast()) : permanents
    }

    func erase() throws {
        order = []
        stored = [:]
    }

    /// The entity's snapshots in the order they were first saved, offset and limited; a filter or
    /// a sort goes back to the context.
    private func matching<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        if descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let entityName = DataStoreRowLayout(for: T.self).entityName
        let all = order.filter { $0.entityName == entityName }.compactMap { stored[$0] }
        let start = min(descriptor.fetchOffset ?? 0, all.count)
        let end = descriptor.fetchLimit.map { min(start + $0, all.count) } ?? all.count
        return Array(all[start..<end])
    }

    /// Applies a save whole or not at all; answers each insert's permanent identifier in order.
    private func write(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        var staged = stored
        var stagedOrder = order
        var key = nextKey
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        var permanents: [PersistentIdentifier] = []
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
        for snapshot in request.inserted + request.updated {
            let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            guard identifier.storeIdentifier == self.identifier else {
                throw RowStoreError(message: "\(identifier) belongs to another store; save it through the container of its own store.")
            }
            if staged[identifier] == nil { stagedOrder.append(identifier) }
            staged[identifier] = snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped)
        }
        let deleted = Set(request.deleted.map(\.persistentIdentifier))
        if !deleted.isEmpty {
            for identifier in deleted { staged[identifier] = nil }
            stagedOrder.removeAll { deleted.contains($0) }
        }
        stored = staged
        order = stagedOrder
        nextKey = key
        return permanents
    }
}

struct RowStoreError: Error {
    let message: String
}
