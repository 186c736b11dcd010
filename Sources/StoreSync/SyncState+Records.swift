import Foundation
import SwiftData

/// The state's records looked up by key through a cache of the current context: the records it
/// fetched or inserted, and the keys it knows have none. A page's lookups are then one fetch per
/// 500 keys, later lookups of the same keys none, and that fetch leaves the context's unsaved
/// records out (`includePendingChanges = false`): a fetch that includes them checks its predicate
/// against every unsaved record, which made a page of thousands of new records quadratic. The
/// cache knows every record this context inserted or deleted, so the store's answer for the
/// keys it lacks is the whole answer.
struct RecordCache {
    var pendingByLocal: [String: SyncPendingRecord?] = [:]
    var identityByLocal: [String: SyncIdentityRecord?] = [:]
    var identityByServer: [String: SyncIdentityRecord?] = [:]
}

extension SyncState {
    /// The pending records of these local models (``LocalKeys`` texts) that have one.
    func pendingRecords(_ locals: some Sequence<String>) throws -> [String: SyncPendingRecord] {
        try cachedRecords(Set(locals), cache: \.pendingByLocal, key: \.local, predicate: { wanted in #Predicate { wanted.contains($0.local) } },
                          remember: { records.pendingByLocal[$0.local] = $0 })
    }

    func insertPending(_ record: SyncPendingRecord) {
        context.insert(record)
        records.pendingByLocal[record.local] = record
    }

    func deletePending(_ record: SyncPendingRecord) {
        context.delete(record)
        records.pendingByLocal[record.local] = .some(nil)
    }

    /// The map entries of these local models (``LocalKeys`` texts) that have one.
    func identityRecords(locals: some Sequence<String>) throws -> [String: SyncIdentityRecord] {
        try cachedRecords(Set(locals), cache: \.identityByLocal, key: \.local, predicate: { wanted in #Predicate { wanted.contains($0.local) } },
                          remember: remember)
    }

    /// The map entries of these server models (``ServerModel/text``) that have one.
    func identityRecords(servers: some Sequence<String>) throws -> [String: SyncIdentityRecord] {
        try cachedRecords(Set(servers), cache: \.identityByServer, key: \.server, predicate: { wanted in #Predicate { wanted.contains($0.server) } },
                          remember: remember)
    }

    /// The records of `keys` (the value of `key`) that exist: from `cache` where it knows them,
    /// else fetched 500 keys at a time, each fetched record passed to `remember` unless cached.
    private func cachedRecords<Record: PersistentModel>(_ keys: Set<String>, cache: WritableKeyPath<RecordCache, [String: Record?]>,
                                                        key: KeyPath<Record, String>, predicate: ([String]) -> Predicate<Record>,
                                                        remember: (Record) -> Void) throws -> [String: Record] {
        var found: [String: Record] = [:]
        var missing: [String] = []
        for text in keys {
            if let cached = records[keyPath: cache][text] {
                if let cached { found[text] = cached }
            } else {
                missing.append(text)
            }
        }
        for chunk in missing.chunked(500) {
            let wanted = Array(chunk)
            var descriptor = FetchDescriptor<Record>(predicate: predicate(wanted))
            descriptor.includePendingChanges = false
            for record in try context.fetch(descriptor) where records[keyPath: cache][record[keyPath: key]] == nil {
                remember(record)
                found[record[keyPath: key]] = record
            }
            for text in wanted where records[keyPath: cache][text] == nil { records[keyPath: cache][text] = .some(nil) }
        }
        return found
    }

    /// Caches a map entry fetched from the store under both its keys, where neither is known.
    private func remember(_ record: SyncIdentityRecord) {
        if records.identityByLocal[record.local] == nil { records.identityByLocal[record.local] = record }
        if records.identityByServer[record.server] == nil { records.identityByServer[record.server] = record }
    }

    func insertIdentity(_ record: SyncIdentityRecord) {
        context.insert(record)
        records.identityByLocal[record.local] = record
        records.identityByServer[record.server] = record
    }

    func deleteIdentity(_ record: SyncIdentityRecord) {
        context.delete(record)
        records.identityByLocal[record.local] = .some(nil)
        records.identityByServer[record.server] = .some(nil)
    }
}
