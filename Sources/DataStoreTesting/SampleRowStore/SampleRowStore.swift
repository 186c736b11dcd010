import Foundation
import OpenSwiftData

/// A custom store written on the public API alone, as a store author outside the library would:
/// it keeps the snapshots it is given in memory, one table per entity in the order they were first
/// saved, speaks rows to contexts through `DataStoreRowAccess`, and deletes whole entities in
/// one step through `DataStoreBatching`.
///
/// It rewrites references to the models a save inserts itself (`DataStoreRemapping`), so a
/// context saves each graph once. It finds models by identifier (as contexts ask for related
/// models and faults) in an index of its own and runs every other query with
/// `SnapshotQueryEngine`, which sends what it cannot run exactly back to the context with
/// `DataStoreError.preferInMemoryFilter` and `.preferInMemorySort`. It passes the conformance kit
/// with the `.erase` and `.batchDelete` capabilities, and is the store that the article "Writing
/// a custom DataStore" ends with.
///
/// ```swift
/// let schema = Schema([Note.self])
/// let container = try ModelContainer(for: schema, configurations: [SampleRowStoreConfiguration(name: "notes", schema: schema)])
/// ```
public final class SampleRowStore: DataStore, DataStoreRowAccess, DataStoreRemapping {
    /// The configuration this store is opened with.
    public typealias Configuration = SampleRowStoreConfiguration
    /// The snapshots this store reads and writes.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: SampleRowStoreConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// Unique per store, so identifiers from two sample stores never collide.
    public let identifier = "SampleRowStore-\(UUID().uuidString)"
    // Contexts on several threads may call the store, and a deferred to-many reads it later.
    let lock = NSLock()
    var tables: [String: SampleRowTable] = [:]
    var nextKey = 1

    /// Opens an empty store; nothing persists, so there is nothing to migrate.
    public init(_ configuration: SampleRowStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
    }

    /// The snapshots the request's descriptor selects.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        configuration.counts.fetches += 1
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try matching(request.descriptor))
    }

    /// The models the descriptor selects, as rows: the stored snapshots' own values, which are in
    /// row order already when a context saved them.
    public func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        configuration.counts.rowFetches += 1
        let layout = DataStoreRowLayout(for: T.self)
        var rows = layout.rows(of: try matching(descriptor))
        if configuration.fault == .shortRows {
            for index in rows.indices { rows[index].values.removeLast() }
        }
        return configuration.defersToMany ? deferringToMany(rows, layout) : rows
    }

    /// Saves the request and answers the remapped identifiers of the inserted models.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        configuration.counts.saves += 1
        let permanents = try write(request)
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for (snapshot, permanent) in zip(request.inserted, permanents) where snapshot.persistentIdentifier != permanent {
            remapped[snapshot.persistentIdentifier] = permanent
        }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }

    /// Saves the request and answers each inserted model's permanent identifier, in order.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        configuration.counts.rowSaves += 1
        let permanents = try write(request)
        return configuration.fault == .missingIdentifier ? Array(permanents.dropLast()) : permanents
    }

    /// Deletes every model in the store.
    public func erase() throws {
        lock.withLock { tables = [:] }
    }

    /// The entity's snapshots the descriptor selects, in its order, offset and limited: models by
    /// identifier (as contexts ask for related models and faults) from the table's index, any other
    /// query through `SnapshotQueryEngine`, which sends back what it cannot run exactly.
    private func matching<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        // A copy of the tables, so the query runs without the lock: the tables are values.
        try matching(descriptor, in: lock.withLock { tables })
    }

    /// ``matching(_:)`` in these tables. The descriptor is translated once, for both ways.
    func matching<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in tables: [String: SampleRowTable]) throws -> [DefaultSnapshot] {
        let table = tables[Schema.entityName(for: T.self)] ?? SampleRowTable()
        let query: DataStoreQuery
        do {
            query = try DataStoreQuery(descriptor)
        } catch let error as DataStoreError {
            throw sentBack(error)
        }
        if query.sortBy.isEmpty, let filter = query.filter, let identifiers = Self.identifiers(selectedBy: filter) {
            return page(table.snapshots(for: identifiers), descriptor)
        }
        if configuration.sendsQueriesBack {
            if query.filter != nil { throw sentBack(DataStoreError.preferInMemoryFilter) }
            if !query.sortBy.isEmpty { throw sentBack(DataStoreError.preferInMemorySort) }
            return page(table.snapshots, descriptor)
        }
        let engine = SnapshotQueryEngine(related: { tables[$0.entityName]?.snapshot(for: $0) },
                                         entitySnapshots: { tables[$0]?.snapshots ?? [] })
        do {
            return try engine.run(query, over: table.snapshots)
        } catch let error as DataStoreError {
            throw sentBack(error)
        }
    }

    private func sentBack(_ error: DataStoreError) -> DataStoreError {
        configuration.counts.sentBack += 1
        return error
    }

    private func page<T>(_ snapshots: [DefaultSnapshot], _ descriptor: FetchDescriptor<T>) -> [DefaultSnapshot] {
        guard descriptor.fetchOffset != nil || descriptor.fetchLimit != nil else { return snapshots }
        let start = min(descriptor.fetchOffset ?? 0, snapshots.count)
        let end = descriptor.fetchLimit.map { min(start + $0, snapshots.count) } ?? snapshots.count
        return Array(snapshots[start..<end])
    }

    /// `rows` with each to-many left to be read, for all of them at once, when first read.
    private func deferringToMany(_ rows: [DataStoreRow], _ layout: DataStoreRowLayout) -> [DataStoreRow] {
        var rows = rows
        let owners = rows.map(\.persistentIdentifier)
        let toMany = schema.entitiesByName[layout.entityName]?.relationships.filter { !$0.isToOneRelationship } ?? []
        for relationship in toMany {
            guard let slot = layout.index(ofProperty: relationship.name) else { continue }
            let group = DataStoreDeferredToMany(relationship: "\(layout.entityName).\(relationship.name)") { [weak self] in
                guard let self else { throw SampleRowStoreError(message: "The store was closed before the relationship was read.") }
                configuration.counts.toManyLoads += 1
                let table = lock.withLock { tables[layout.entityName] } ?? SampleRowTable()
                var related: [PersistentIdentifier: [PersistentIdentifier]] = [:]
                for owner in owners {
                    related[owner] = table.snapshot(for: owner).flatMap { layout.values(of: $0)[slot] as? [PersistentIdentifier] } ?? []
                }
                return related
            }
            for index in rows.indices { rows[index].values[slot] = group.reference(for: rows[index].persistentIdentifier) }
        }
        return rows
    }
}
