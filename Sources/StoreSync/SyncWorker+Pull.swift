import Foundation
import SwiftData

/// Pulling: the server's history after the last pulled transaction comes down in pages, each
/// applied in one local save. A client that never pulled (or whose place in the server's
/// history was deleted) first takes every model of every synced entity, a snapshot.
extension SyncWorker {
    func pull() async throws {
        while true {
            guard let after = try state.value("pulled", as: Int64.self) else {
                try await snapshot()
                continue
            }
            let answer: PullResponse
            do {
                answer = try await transport.post(SyncPath.pull, PullRequest(client: client, schemaVersion: schema.version, after: after,
                                                                             limit: max(1, configuration.pullPageSize)),
                                                  as: PullResponse.self, decoder: SyncCoding.decoder(schema))
            } catch let error as SyncError where error.code == .serverHistoryExpired {
                try state.set("pulled", Int64?.none)
                try state.save()
                continue
            }
            try checkServer(answer.storeIdentifier)
            try await apply(answer.changes, pulled: answer.token)
            if answer.token >= answer.latest { return }
        }
    }

    /// Takes every model the server has, entity by entity (destinations of to-one relationships
    /// first), and deletes the mapped local models the server no longer has.
    func snapshot() async throws {
        let fresh = try state.isEmptyMap()
        var token: Int64?
        for name in schema.insertionOrder {
            let decoder = SyncCoding.decoder(schema)
            decoder.userInfo[SyncRow.entityKey] = name
            let first = try await transport.post(SyncPath.snapshot,
                                                 SnapshotRequest(client: client, schemaVersion: schema.version, entity: name, keys: nil,
                                                                 limit: configuration.snapshotPageSize),
                                                 as: SnapshotResponse.self, decoder: decoder)
            try checkServer(first.storeIdentifier)
            token = min(token ?? first.token, first.token)
            let keys = first.keys ?? []
            try await apply(first.rows.map { PulledChange(model: ServerModel(entity: name, key: $0.key), row: $0) }, pulled: nil, fresh: fresh)
            for chunk in Array(keys.dropFirst(first.rows.count)).chunked(max(1, configuration.snapshotPageSize)) {
                let page = try await transport.post(SyncPath.snapshot,
                                                    SnapshotRequest(client: client, schemaVersion: schema.version, entity: name, keys: Array(chunk),
                                                                    limit: configuration.snapshotPageSize),
                                                    as: SnapshotResponse.self, decoder: decoder)
                try await apply(page.rows.map { PulledChange(model: ServerModel(entity: name, key: $0.key), row: $0) }, pulled: nil, fresh: fresh)
            }
            let present = Set(keys.map { ServerModel(entity: name, key: $0) })
            let gone = try state.mapped(entity: name).filter { !present.contains($0.server) }
            if !gone.isEmpty { try await apply(gone.map { PulledChange(deleted: $0.server) }, pulled: nil) }
        }
        try state.set("pulled", token ?? 0)
        try state.save()
    }

    /// Refuses a server whose store is not the one this client synced with: its keys and
    /// history numbers name other models.
    private func checkServer(_ storeIdentifier: String) throws {
        guard let known = try state.value("serverStore", as: String.self) else {
            try state.set("serverStore", storeIdentifier)
            return
        }
        guard known == storeIdentifier else {
            throw SyncError(.serverStoreChanged, "The server now serves another store (\(storeIdentifier), not \(known)), whose models are not the ones this client synced. The local store is unchanged; to sync it with the new store, delete the engine's state (the .sync file beside the store) and the next sync pushes every local model.")
        }
    }
}
