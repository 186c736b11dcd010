import Foundation
import SwiftData

/// The changes read from the local history and not pushed yet.
extension SyncState {
    /// The oldest pending changes, at most `limit`.
    func pending(limit: Int) throws -> [PendingChange] {
        var descriptor = FetchDescriptor<SyncPendingRecord>(sortBy: [SortDescriptor(\.sequence)])
        descriptor.fetchLimit = limit
        return try context.fetch(descriptor).map(change)
    }

    /// The pending changes of those local models that have some.
    func pending(of locals: some Collection<PersistentIdentifier>) throws -> [PersistentIdentifier: PendingChange] {
        var found: [PersistentIdentifier: PendingChange] = [:]
        for record in try pendingRecords(try locals.map(text)).values {
            let change = try change(record)
            found[change.local] = change
        }
        return found
    }

    /// The pending inserts of these entities.
    func pendingInserts(of entities: [String]) throws -> [PendingChange] {
        try context.fetch(FetchDescriptor<SyncPendingRecord>(predicate: #Predicate { $0.inserted && entities.contains($0.entity) })).map(change)
    }

    func pendingCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<SyncPendingRecord>())
    }

    /// The next sequence number for a new pending change.
    func nextSequence() throws -> Int {
        var descriptor = FetchDescriptor<SyncPendingRecord>(sortBy: [SortDescriptor(\.sequence, order: .reverse)])
        descriptor.fetchLimit = 1
        return (try context.fetch(descriptor).first?.sequence ?? 0) + 1
    }

    /// Stores a pending change (an empty one removes the record).
    func store(_ change: PendingChange) throws {
        let localText = try text(change.local)
        let record = try pendingRecords([localText])[localText]
        if change.isEmpty {
            if let record { deletePending(record) }
            return
        }
        let target = record ?? SyncPendingRecord(local: localText, entity: change.entity, sequence: change.sequence)
        if record == nil { insertPending(target) }
        target.revision = change.revision
        target.inserted = change.inserted
        target.deleted = change.deleted
        target.properties = change.properties.sorted()
        target.server = change.server?.text
    }

    /// Removes what a push sent of a model's pending change: all of it while no change came in
    /// since (same revision); otherwise the model is now known to the server, so what is left
    /// is an update.
    func settle(_ sent: PendingChange) throws {
        let localText = try text(sent.local)
        guard let record = try pendingRecords([localText])[localText] else { return }
        if record.revision == sent.revision {
            deletePending(record)
        } else {
            record.inserted = false
        }
    }

    private func change(_ record: SyncPendingRecord) throws -> PendingChange {
        PendingChange(local: try identifier(record.local), entity: record.entity, sequence: record.sequence, revision: record.revision,
                      inserted: record.inserted, deleted: record.deleted, properties: Set(record.properties),
                      server: record.server.flatMap(ServerModel.init(text:)))
    }
}
