import Foundation
import SwiftData

/// Pushing: the pending changes go up in batches, each kept as an outbox (its bytes and its
/// idempotency key) until the server answers, so a push retried after a crash, a timeout or a
/// lost answer is applied once. The answer maps each inserted model to its server identity.
extension SyncWorker {
    func push() async throws {
        // A push an earlier round left unanswered goes first, with its key: its answer carries
        // the server identities of models pushed since.
        if let outbox = try state.value("outbox", as: Outbox.self) { try await send(outbox) }
        while true {
            try absorb()
            let pending = try state.pending(limit: max(1, configuration.pushBatchSize))
            guard !pending.isEmpty else { return }
            let context = ModelContext(container)
            var plan = try plan(pending, in: context)
            if configuration.resolver != nil, !(plan.updates.isEmpty && plan.deletes.isEmpty) {
                try await resolveConflicts(&plan, context: context)
            }
            let outbox = Outbox(key: UUID().uuidString,
                                body: try SyncCoding.encoder().encode(PushBody(client: client, schemaVersion: schema.version, plan: plan)),
                                inserts: try plan.inserts.map { try state.text($0.model.persistentModelID) },
                                deletes: plan.deletes.map(\.text),
                                sent: try plan.sent.map { Outbox.Sent(local: try state.text($0.local), revision: $0.revision) },
                                baselines: try baselines(of: plan))
            if plan.isEmpty {
                try settle(outbox, keys: [])
                continue
            }
            try state.set("outbox", outbox)
            try state.save()
            try await send(outbox)
        }
    }

    private func send(_ outbox: Outbox) async throws {
        let data = try await transport.post(SyncPath.push, body: outbox.body, idempotencyKey: outbox.key)
        let answer = try transport.decode(PushResponse.self, from: data, decoder: SyncCoding.decoder(), path: SyncPath.push)
        guard answer.keys.count == outbox.inserts.count else {
            throw SyncError(.invalidResponse, "The server answered a push of \(outbox.inserts.count) inserts with \(answer.keys.count) keys.")
        }
        try settle(outbox, keys: answer.keys)
    }

    /// What the server holds of each model the plan sends, once it has applied it.
    private func baselines(of plan: PushPlan) throws -> [String: Data] {
        var baselines: [String: Data] = [:]
        for insert in plan.inserts {
            baselines[try state.text(insert.model.persistentModelID)] = try state.baseline(of: insert.model, entity: insert.entity)
        }
        for update in plan.updates {
            baselines[try state.text(update.model.persistentModelID)] = try state.baseline(of: update.model, entity: update.entity, Set(update.properties))
        }
        return baselines
    }

    /// Records a push's answer: the inserts' server identities, the deletes' map entries gone,
    /// what the server now holds of the models sent, the pending changes it sent cleared, the
    /// outbox gone, all in one save of the state.
    private func settle(_ outbox: Outbox, keys: [ServerKey?]) throws {
        try state.prefetch(outbox, keys: keys)
        var merged: [PersistentIdentifier] = []
        var baselines = outbox.baselines ?? [:]
        for (index, key) in keys.enumerated() {
            let baseline = baselines.removeValue(forKey: outbox.inserts[index])
            guard let key else { continue }
            let local = try state.identifier(outbox.inserts[index])
            let server = ServerModel(entity: local.entityName, key: key)
            // The server merged the insert into a model it had (a #Unique upsert) that this
            // client already holds as another local model: that one goes, this one stays.
            if let other = try state.locals(of: [server])[server], other != local { merged.append(other) }
            try state.map(local, to: server, baseline: baseline)
        }
        for text in outbox.deletes {
            if let server = ServerModel(text: text) { try state.unmap(server: server) }
        }
        try state.recordBaselines(Dictionary(uniqueKeysWithValues: try baselines.map { (try state.identifier($0.key), $0.value) }))
        for sent in outbox.sent {
            try state.settle(PendingChange(local: try state.identifier(sent.local), entity: "", sequence: 0, revision: sent.revision,
                                           inserted: false, deleted: false, properties: [], server: nil))
        }
        if !merged.isEmpty {
            let context = engineContext()
            for model in try models(merged, in: context).values { context.delete(model) }
            try save(context)
        }
        try state.set("outbox", Outbox?.none)
        try state.save()
    }

    /// The plan for a batch of pending changes: a mapped model is updated (every property when it
    /// was inserted again locally, by an upsert), an unmapped one inserted whole, a deleted or
    /// vanished mapped one deleted. Related models the server does not know yet are inserted too.
    private func plan(_ pending: [PendingChange], in context: ModelContext) throws -> PushPlan {
        var plan = PushPlan()
        plan.sent = pending
        plan.servers = try state.servers(of: pending.map(\.local))
        let present = try models(pending.filter { !$0.deleted }.map(\.local), in: context)
        for change in pending {
            guard let entity = schema[change.entity] else { continue }
            guard !change.deleted, let model = present[change.local] else {
                if let server = change.server ?? plan.servers[change.local] { plan.deletes.append(server) }
                continue
            }
            if let server = plan.servers[change.local] {
                let travelling = entity.properties.filter(\.travels).map(\.name)
                let names = change.inserted ? travelling : travelling.filter(change.properties.contains)
                if !names.isEmpty { plan.updates.append(PushPlan.Update(server: server, entity: entity, model: model, properties: names)) }
            } else if plan.insertIndex[change.local] == nil {
                plan.insert(model, entity: entity)
            }
        }
        try addRelatedInserts(&plan)
        return plan
    }

    /// Inserts the models the plan's relationships name that the server does not know (saved by
    /// a transaction not read yet, or left unmapped by a resolver), until none is left.
    private func addRelatedInserts(_ plan: inout PushPlan) throws {
        var checked = 0
        var updatesChecked = 0
        while true {
            var targets: [any PersistentModel] = []
            for insert in plan.inserts[checked...] {
                targets += related(insert.model, insert.entity.properties.filter(\.travels))
            }
            for update in plan.updates[updatesChecked...] {
                targets += related(update.model, update.properties.compactMap { update.entity.byName[$0] })
            }
            checked = plan.inserts.count
            updatesChecked = plan.updates.count
            let unknown = targets.filter { plan.reference(to: $0.persistentModelID) == nil }
            guard !unknown.isEmpty else { return }
            let servers = try state.servers(of: unknown.map(\.persistentModelID))
            plan.servers.merge(servers) { first, _ in first }
            for target in unknown where servers[target.persistentModelID] == nil && plan.insertIndex[target.persistentModelID] == nil {
                guard let entity = schema[target.persistentModelID.entityName] else { continue }
                plan.insert(target, entity: entity)
            }
        }
    }

    private func related(_ model: any PersistentModel, _ properties: [SyncProperty]) -> [any PersistentModel] {
        properties.flatMap { property -> [any PersistentModel] in
            switch property.access {
            case .attribute: []
            case .optionalToOne(let access, _): access.target(of: model).map { [$0] } ?? []
            case .requiredToOne(let access, _): access.target(of: model).map { [$0] } ?? []
            case .toMany(let access, _): access.targets(of: model)
            }
        }
    }
}
