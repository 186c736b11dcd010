import Foundation
import OpenSwiftData

/// What a ``ScriptedStore`` does, set per test: a custom store in the style of the seeds' stores.
final class StoreScript: @unchecked Sendable {
    /// Throw `preferInMemoryFilter` whenever a fetch has a predicate (as the WWDC sample does).
    var refusesPredicates = true
    /// Throw `preferInMemorySort` whenever a fetch has sort descriptors.
    var refusesSorts = true
    /// Mint permanent identifiers (the WWDC store) or keep the temporary ones (the blog's stores).
    var remapsIdentifiers = true
    /// Every fetch hands back each snapshot twice, as a faulty store might.
    var sendsRowsTwice = false
    /// The next save throws this error.
    var failNextSave: (any Error)?
    /// Snapshots to hand back as `snapshotsToReregister` on the next save, keyed by permanent id.
    var reregisterAllOnSave = false
    private(set) var saveRequests: [(inserted: Int, updated: Int, deleted: Int)] = []
    private(set) var fetchDescriptors: [(predicate: Bool, sorts: Int, limit: Int?, offset: Int?)] = []
    private(set) var initializedStates: [UUID] = []
    private(set) var invalidatedStates: [UUID] = []
    var rows: [PersistentIdentifier: DefaultSnapshot] = [:]
    var order: [PersistentIdentifier] = []

    func recordSave(_ inserted: Int, _ updated: Int, _ deleted: Int) { saveRequests.append((inserted, updated, deleted)) }
    func recordFetch(predicate: Bool, sorts: Int, limit: Int?, offset: Int?) { fetchDescriptors.append((predicate, sorts, limit, offset)) }
    func recordInitialize(_ id: UUID) { initializedStates.append(id) }
    func recordInvalidate(_ id: UUID) { invalidatedStates.append(id) }
}

final class ScriptedConfiguration: DataStoreConfiguration {
    typealias StoreType = ScriptedStore
    var name: String
    var schema: Schema?
    let script: StoreScript

    init(name: String = "Scripted", schema: Schema? = nil, script: StoreScript = StoreScript()) {
        self.name = name
        self.schema = schema
        self.script = script
    }

    static func == (lhs: ScriptedConfiguration, rhs: ScriptedConfiguration) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

struct ScriptedFailure: Error, Equatable { let reason: String }

/// Declares neither `identifier` nor `schema`: the protocol's defaults supply them.
final class ScriptedStore: DataStore {
    typealias Configuration = ScriptedConfiguration
    typealias Snapshot = DefaultSnapshot
    let configuration: ScriptedConfiguration
    private var nextKey = 1

    init(_ configuration: ScriptedConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
    }

    private var script: StoreScript { configuration.script }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        let descriptor = request.descriptor
        script.recordFetch(predicate: descriptor.predicate != nil, sorts: descriptor.sortBy.count,
                           limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        if script.refusesPredicates, descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if script.refusesSorts, !descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let entity = Schema.entityName(for: T.self)
        var all = script.order.compactMap { script.rows[$0] }.filter { $0.persistentIdentifier.entityName == entity }
        if script.sendsRowsTwice { all = all.flatMap { [$0, $0] } }
        return DataStoreFetchResult(descriptor: descriptor,
                                    fetchedSnapshots: Array(all.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? .max)))
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        script.recordSave(request.inserted.count, request.updated.count, request.deleted.count)
        if let failure = script.failNextSave {
            script.failNextSave = nil
            throw failure
        }
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            var permanent = snapshot.persistentIdentifier
            if script.remapsIdentifiers {
                permanent = try PersistentIdentifier.identifier(for: identifier, entityName: permanent.entityName, primaryKey: nextKey)
                nextKey += 1
                remapped[snapshot.persistentIdentifier] = permanent
            }
            script.rows[permanent] = snapshot.copy(persistentIdentifier: permanent)
            script.order.append(permanent)
        }
        for snapshot in request.updated { script.rows[snapshot.persistentIdentifier] = snapshot }
        for snapshot in request.deleted {
            script.rows[snapshot.persistentIdentifier] = nil
            script.order.removeAll { $0 == snapshot.persistentIdentifier }
        }
        let reregister = script.reregisterAllOnSave ? script.rows : [:]
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: reregister)
    }

    func initializeState(for editingState: EditingState) { script.recordInitialize(editingState.id) }
    func invalidateState(for editingState: EditingState) { script.recordInvalidate(editingState.id) }
}

/// A container over a fresh scripted store for the given models.
func scriptedContainer(_ types: any PersistentModel.Type..., script: StoreScript = StoreScript()) throws -> (ModelContainer, StoreScript) {
    let container = try ModelContainer(for: Schema(types), configurations: [ScriptedConfiguration(script: script)])
    return (container, script)
}

let day: TimeInterval = 86_400
let epoch = Date(timeIntervalSince1970: 1_750_000_000)

/// Three trips: Paris (France), Kyoto (Japan), Lyon (France), inserted and saved in that order.
@discardableResult
func insertSampleTrips(into context: ModelContext) throws -> [Trip] {
    let trips = [
        Trip(name: "Paris", destination: "France", startDate: epoch, budget: 1200),
        Trip(name: "Kyoto", destination: "Japan", startDate: epoch + 30 * day, budget: 3000, notes: "cherry blossoms"),
        Trip(name: "Lyon", destination: "France", startDate: epoch + 60 * day, budget: 400),
    ]
    for trip in trips { context.insert(trip) }
    try context.save()
    return trips
}
