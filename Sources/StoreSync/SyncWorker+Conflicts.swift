import Foundation
import SwiftData

/// With a resolver, a push first asks the server what others changed since this client's last
/// pull that the push would overwrite (`sync/conflicts`), lets the resolver settle each
/// conflict, and sends what it decided. A change another writer makes between that check and
/// the push follows the default rules.
extension SyncWorker {
    func resolveConflicts(_ plan: inout PushPlan, context: ModelContext) async throws {
        guard let resolver = configuration.resolver else { return }
        let request = ConflictsRequest(client: client, schemaVersion: schema.version, base: try state.value("pulled", as: Int64.self),
                                       updates: plan.updates.map { .init(model: WireReference($0.server), properties: $0.properties) },
                                       deletes: plan.deletes.map(WireReference.init))
        let decoder = SyncCoding.decoder(schema)
        decoder.userInfo[SyncRow.entityKey] = ConflictsResponse.ConflictEntities(updates: plan.updates.map(\.entity.name), deletes: plan.deletes.map(\.entity))
        let answer = try await transport.post(SyncPath.conflicts, request, as: ConflictsResponse.self, decoder: decoder)
        guard !answer.conflicts.isEmpty else { return }
        let deletedLocals = try state.locals(of: plan.deletes)
        var keptByServer: [Int: Set<String>] = [:]
        var reinserted: Set<Int> = []
        var droppedUpdates: Set<Int> = []
        var droppedDeletes: Set<Int> = []
        for conflict in answer.conflicts {
            switch conflict.kind {
            case .updateUpdate:
                guard let update = plan.updates[safe: conflict.index], let name = conflict.property, let property = update.entity.byName[name] else { continue }
                let decision = resolver(SyncConflict(kind: .updateUpdate, entityName: update.entity.name, persistentIdentifier: update.model.persistentModelID,
                                                     property: name, localValue: localValue(of: property, in: update.model),
                                                     serverValue: try serverValue(conflict.row?.values[name])))
                if decision == .keepServer { keptByServer[conflict.index, default: []].insert(name) }
            case .updateDelete:
                guard let update = plan.updates[safe: conflict.index] else { continue }
                let decision = resolver(SyncConflict(kind: .updateDelete, entityName: update.entity.name, persistentIdentifier: update.model.persistentModelID,
                                                     property: nil, localValue: nil, serverValue: nil))
                if decision == .keepLocal { reinserted.insert(conflict.index) } else { droppedUpdates.insert(conflict.index) }
            case .deleteUpdate:
                guard let server = plan.deletes[safe: conflict.index], let local = deletedLocals[server] else { continue }
                let decision = resolver(SyncConflict(kind: .deleteUpdate, entityName: server.entity, persistentIdentifier: local,
                                                     property: nil, localValue: nil, serverValue: nil))
                if decision == .keepServer { droppedDeletes.insert(conflict.index) }
            }
        }
        for index in plan.updates.indices.reversed() {
            if reinserted.contains(index) {
                plan.reinsert(update: index)
            } else if droppedUpdates.contains(index) {
                plan.updates.remove(at: index)
            } else if let kept = keptByServer[index] {
                plan.updates[index].properties.removeAll(where: kept.contains)
                if plan.updates[index].properties.isEmpty { plan.updates.remove(at: index) }
            }
        }
        plan.deletes = plan.deletes.enumerated().filter { !droppedDeletes.contains($0.offset) }.map(\.element)
    }

    /// A local property's value as a resolver sees it: an attribute's value, or the related
    /// models' identifiers.
    func localValue(of property: SyncProperty, in model: any PersistentModel) -> Any? {
        switch property.access {
        case .attribute(let access): access.value(of: model)
        case .optionalToOne(let access, _): access.target(of: model)?.persistentModelID
        case .requiredToOne(let access, _): access.target(of: model)?.persistentModelID
        case .toMany(let access, _): access.targets(of: model).map(\.persistentModelID)
        }
    }

    /// A server value as a resolver sees it: an attribute's value, or the local identifiers of
    /// the related models this client holds.
    func serverValue(_ value: SyncRow.Value?) throws -> Any? {
        switch value {
        case nil: return nil
        case .attribute(let attribute): return attribute
        case .toOne(let server): return try server.flatMap { try state.locals(of: [$0])[$0] }
        case .toMany(let servers):
            let locals = try state.locals(of: servers)
            return servers.compactMap { locals[$0] }
        }
    }
}
