import Foundation
import SwiftData

/// The identity map: each synced local model's server model, and what the server holds of it.
extension SyncState {
    /// The local models of those server models that have one.
    func locals(of servers: some Collection<ServerModel>) throws -> [ServerModel: PersistentIdentifier] {
        var found: [ServerModel: PersistentIdentifier] = [:]
        for record in try identityRecords(servers: servers.map(\.text)).values {
            if let server = ServerModel(text: record.server) { found[server] = try identifier(record.local) }
        }
        return found
    }

    /// The server models of those local models that have one.
    func servers(of locals: some Collection<PersistentIdentifier>) throws -> [PersistentIdentifier: ServerModel] {
        var found: [PersistentIdentifier: ServerModel] = [:]
        for record in try identityRecords(locals: try locals.map(text)).values {
            if let server = ServerModel(text: record.server) { found[try identifier(record.local)] = server }
        }
        return found
    }

    /// Looks up the map entries of these local and server models at once, so that the per-model
    /// calls that follow (``map(_:to:fresh:baseline:)``, ``unmap(server:)``, ``settle(_:)``)
    /// find them without a fetch each.
    func prefetch(locals: some Collection<PersistentIdentifier>, servers: some Collection<ServerModel>) throws {
        let texts = try locals.map(text)
        _ = try identityRecords(locals: texts)
        _ = try identityRecords(servers: servers.map(\.text))
        _ = try pendingRecords(texts)
    }

    /// Whether no local model is mapped yet.
    func isEmptyMap() throws -> Bool {
        var descriptor = FetchDescriptor<SyncIdentityRecord>()
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).isEmpty
    }

    /// Every mapped model of an entity.
    func mapped(entity: String) throws -> [(server: ServerModel, local: PersistentIdentifier)] {
        try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { $0.entity == entity })).compactMap { record in
            guard let server = ServerModel(text: record.server) else { return nil }
            return (server, try identifier(record.local))
        }
    }

    /// Maps a local model to a server model, replacing whatever either was mapped to, with what
    /// the server holds of it (``baseline(of:entity:_:)``). `fresh`: neither is mapped.
    func map(_ local: PersistentIdentifier, to server: ServerModel, fresh: Bool = false, baseline: Data?) throws {
        let localText = try text(local)
        let serverText = server.text
        if !fresh {
            if let record = try identityRecords(servers: [serverText])[serverText] { deleteIdentity(record) }
            if let record = try identityRecords(locals: [localText])[localText] { deleteIdentity(record) }
        }
        insertIdentity(SyncIdentityRecord(entity: server.entity, server: serverText, local: localText, baseline: baseline))
    }

    func unmap(server: ServerModel) throws {
        let serverText = server.text
        if let record = try identityRecords(servers: [serverText])[serverText] { deleteIdentity(record) }
    }
}

extension SyncState {
    /// Looks up at once every map entry and pending change that settling a push's answer
    /// touches: its inserts and the servers' keys for them, its deletes, the changes it sent.
    func prefetch(_ outbox: Outbox, keys: [ServerKey?]) throws {
        var servers = outbox.deletes
        for (index, key) in keys.enumerated() where outbox.inserts.indices.contains(index) {
            guard let key else { continue }
            servers.append(ServerModel(entity: try identifier(outbox.inserts[index]).entityName, key: key).text)
        }
        let locals = outbox.inserts + outbox.sent.map(\.local)
        _ = try identityRecords(locals: locals)
        _ = try identityRecords(servers: servers)
        _ = try pendingRecords(locals)
    }
}
