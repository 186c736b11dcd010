import Foundation
import OpenSwiftData
import StoreWire

/// The sync endpoints' work on the served store: pushes applied once per idempotency key, pulls
/// of the history after a client's last transaction with the changed models' current rows, whole
/// entities for a first sync, and the conflicts a push would meet.
extension ServedStore {
    /// The author of a client's pushes in the served history, which tells its own transactions
    /// from other writers' when looking for conflicts.
    static func syncAuthor(client: String) -> String { "sync:\(client)" }

    func syncPush(_ push: SyncPushRequest, idempotencyKey: IdempotencyKey, fingerprint: String) throws -> SaveReceipt {
        try checkSchemaVersion(push.schemaVersion)
        _ = try syncHistory()
        return try saveOnce(idempotencyKey: idempotencyKey, fingerprint: fingerprint) {
            let plan = try SyncPushPlan(push, served: self, author: Self.syncAuthor(client: push.client))
            return (plan.request, { try WireCoding.encoder().encode(plan.response($0)) })
        }
    }

    func syncPull(_ request: SyncPullRequest) throws -> SyncPullResponse {
        try checkSchemaVersion(request.schemaVersion)
        let history = try syncHistory()
        let limit = min(max(request.limit ?? 500, 1), 10_000)
        return try serialised {
            let latest = try history.latestHistoryTransaction() ?? 0
            let records = try history.historyRecords(HistoryRecordQuery(filter: after(request.after, in: history), limit: limit))
            var order: [PersistentIdentifier] = []
            var changes: [PersistentIdentifier: (deleted: Bool, inserted: Bool, names: Set<String>)] = [:]
            for record in records {
                for change in record.changes where schema.entities[change.identifier.entityName] != nil {
                    var entry = changes[change.identifier] ?? {
                        order.append(change.identifier)
                        return (false, false, [])
                    }()
                    switch change.kind {
                    case .insert: entry.inserted = true
                    case .update(let names): entry.names.formUnion(names)
                    case .delete: entry.deleted = true
                    }
                    changes[change.identifier] = entry
                }
            }
            let rows = try currentSnapshots(order.filter { changes[$0]?.deleted == false })
            let answer = try order.compactMap { identifier -> SyncChange? in
                guard let entry = changes[identifier] else { return nil }
                let key = SyncKey(identifier.primaryKey)
                if entry.deleted { return SyncChange(entity: identifier.entityName, key: key, deleted: true, changed: nil, row: nil) }
                // Gone since: a later transaction deletes it, and a later pull brings that.
                guard let snapshot = rows[identifier] else { return nil }
                return SyncChange(entity: identifier.entityName, key: key, deleted: false,
                                  changed: entry.inserted ? nil : entry.names.sorted(),
                                  row: SyncRow(snapshot, info: try syncInfo(identifier.entityName)))
            }
            let token = records.last?.transactionIdentifier ?? max(request.after, latest)
            return SyncPullResponse(storeIdentifier: history.historyStoreIdentifier, token: token, latest: max(latest, token), changes: answer)
        }
    }

    func syncSnapshot(_ request: SyncSnapshotRequest) throws -> SyncSnapshotResponse {
        try checkSchemaVersion(request.schemaVersion)
        let history = try syncHistory()
        let info = try syncInfo(request.entity)
        let limit = min(max(request.limit ?? 1_000, 1), 10_000)
        if let keys = request.keys, keys.count > limit {
            throw StoreServerError(.invalidRequest, "A snapshot request may name at most \(limit) keys; it named \(keys.count). Ask for fewer at a time.")
        }
        return try serialised {
            let token = try history.latestHistoryTransaction() ?? 0
            var keys: [SyncKey]?
            let wanted: [PersistentIdentifier]
            if let named = request.keys {
                wanted = named.map { identifier(request.entity, $0) }
            } else {
                let all = try store.fetchIdentifiers(DataStoreQuery(entityName: request.entity)).filter { $0.entityName == request.entity }
                keys = all.map { SyncKey($0.primaryKey) }
                wanted = Array(all.prefix(limit))
            }
            let found = try currentSnapshots(wanted)
            return SyncSnapshotResponse(storeIdentifier: history.historyStoreIdentifier, token: token, keys: keys,
                                        rows: wanted.compactMap { found[$0].map { SyncRow($0, info: info) } })
        }
    }

    func syncConflicts(_ request: SyncConflictsRequest) throws -> SyncConflictsResponse {
        try checkSchemaVersion(request.schemaVersion)
        let history = try syncHistory()
        return try serialised {
            let latest = try history.latestHistoryTransaction()
            var filter = after(request.base ?? 0, in: history)
            filter = HistoryFilter(conditions: filter.conditions + [.author(equal: false, Self.syncAuthor(client: request.client))],
                                   tokens: filter.tokens)
            var remote: [PersistentIdentifier: Set<String>] = [:]
            for record in try history.historyRecords(HistoryRecordQuery(filter: filter)) {
                for change in record.changes {
                    if case .update(let names) = change.kind { remote[change.identifier, default: []].formUnion(names) }
                }
            }
            let updated = try request.updates.map { try requireKey($0.model) }
            let deleted = try request.deletes.map { try requireKey($0) }
            let current = try currentSnapshots(updated + deleted)
            var conflicts: [SyncConflictsResponse.Conflict] = []
            for (index, update) in request.updates.enumerated() {
                guard let snapshot = current[updated[index]] else {
                    conflicts.append(.init(kind: .updateDelete, index: index, property: nil, row: nil))
                    continue
                }
                let row = SyncRow(snapshot, info: try syncInfo(update.model.entity))
                for name in update.properties.sorted() where remote[updated[index]]?.contains(name) == true {
                    conflicts.append(.init(kind: .updateUpdate, index: index, property: name, row: row))
                }
            }
            for (index, reference) in request.deletes.enumerated() {
                guard let snapshot = current[deleted[index]], remote[deleted[index]]?.isEmpty == false else { continue }
                conflicts.append(.init(kind: .deleteUpdate, index: index, property: nil, row: SyncRow(snapshot, info: try syncInfo(reference.entity))))
            }
            return SyncConflictsResponse(token: latest, conflicts: conflicts)
        }
    }

    /// The history after transaction `number`, refusing a number from before deleted history.
    private func after(_ number: Int64, in history: any HistoryRecordReading) -> HistoryFilter {
        HistoryFilter(conditions: [.transaction(.greater, number)],
                      tokens: [DefaultHistoryToken(storeIdentifier: history.historyStoreIdentifier, transactionIdentifier: number)])
    }

    private func requireKey(_ reference: SyncReference) throws -> PersistentIdentifier {
        guard let key = reference.key else {
            throw StoreServerError(.invalidRequest, "A conflict check names \(reference.entity) without a 'key'; name stored models by key.")
        }
        _ = try syncInfo(reference.entity)
        return identifier(reference.entity, key)
    }
}
