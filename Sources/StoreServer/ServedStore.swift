import Foundation
import OpenSwiftData
import StoreWire

/// The one store a server serves, with the schema it checks requests against. Calls are
/// serialised, because a store adopting ``QueryableDataStore`` need not be thread-safe, unless the
/// store allows concurrent calls: a store that waits on the network (PostgreSQL's) would
/// otherwise hold every request behind the one that waits. No call waits for the lock longer
/// than the server's time limit.
final class ServedStore: @unchecked Sendable {
    let schema: ServedSchema
    /// The served schema's version and fingerprints, which clients compare with their own.
    let schemaRecord: StoredSchema
    let store: any QueryableDataStore
    /// The container the store belongs to, for the contexts of the store browser.
    let container: ModelContainer
    private let lock = NSLock()
    /// Whether calls take ``lock`` (the store does not allow concurrent calls).
    private let serialises: Bool
    /// The longest a call waits for ``lock``: by then its client has had its 503.
    private let lockWait: TimeInterval
    /// Tells the clients streaming `history/events` of each new transaction.
    let historyEvents: HistoryBroadcaster
    /// Receipts for stores that cannot keep them in their own transactions.
    private let receipts = ReceiptBook()
    /// The served schema's row layouts by entity name: the process may also hold another version
    /// of the same models (a migration's), so the name alone does not say which class.
    private let layouts: [String: DataStoreRowLayout]

    init(container: ModelContainer, lockWait: Duration) throws {
        guard container.stores.count == 1, let slot = container.stores.first else {
            throw StoreServerError(.invalidConfiguration, "A store server serves one store, but the container has \(container.stores.count); create the container with one configuration.")
        }
        guard let store = slot.store as? any QueryableDataStore else {
            throw StoreServerError(.invalidConfiguration, "The container's store (\(type(of: slot.store))) cannot run queries by entity name; serve the default store, InMemoryStore or JSONStore, or adopt QueryableDataStore.")
        }
        self.store = store
        self.container = container
        serialises = !store.allowsConcurrentCalls
        self.lockWait = Double(lockWait.components.seconds) + Double(lockWait.components.attoseconds) / 1e18
        schema = ServedSchema(container.schema)
        schemaRecord = StoredSchema(container.schema)
        layouts = Dictionary(container.schema.entities.compactMap { entity in
            entity.modelType.map { (entity.name, DataStoreRowLayout(for: $0)) }
        }, uniquingKeysWith: { first, _ in first })
        historyEvents = HistoryBroadcaster(storeIdentifier: (store as? any HistoryRecordReading)?.historyStoreIdentifier ?? store.identifier)
        historyEvents.latest = { [weak self] in try self?.latestHistoryTransaction() }
    }

    /// The store identifier of the identifiers it mints.
    var identifier: String { store.identifier }

    /// Runs a store call, one at a time unless the store allows concurrent calls.
    func serialised<T>(_ call: () throws -> T) throws -> T {
        serialises ? try locked(call) : try call()
    }

    /// Runs `call` holding the lock, waiting for it no longer than the time limit.
    private func locked<T>(_ call: () throws -> T) throws -> T {
        guard lock.lock(before: Date(timeIntervalSinceNow: lockWait)) else {
            throw StoreServerError(.timeout, "The server's store was busy with other requests for longer than the time limit; try again (a save with the same Idempotency-Key is applied once).")
        }
        defer { lock.unlock() }
        return try call()
    }

    func fetch(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try serialised { try store.fetchSnapshots(query) }
    }

    /// The matching models as rows of their entity's layout; the snapshots a store reads are in
    /// that order already, so the values are handed over without a copy.
    func rows(_ query: DataStoreQuery) throws -> RowsResponse {
        guard let layout = layouts[query.entityName] ?? DataStoreRowLayout(entityName: query.entityName) else {
            throw StoreServerError(.notFound, "The server has no model type for the entity \(query.entityName).")
        }
        return RowsResponse(layout: layout, storeIdentifier: identifier, rows: layout.rows(of: try fetch(query)))
    }

    func count(_ query: DataStoreQuery) throws -> Int {
        try serialised { try store.fetchCount(query) }
    }

    func identifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        try serialised { try store.fetchIdentifiers(query) }
    }

    func batchDelete(_ query: DataStoreQuery, author: String?) throws {
        try serialised { try store.deleteModels(matching: query, editingState: EditingState(author: author)) }
        historyEvents.storeChanged()
    }

    /// Applies a save once per idempotency key and returns the encoded ``SaveResponse``; a retry
    /// with the same key and body gets the first response back (`isReplay`).
    func save(_ changes: SaveRequest, idempotencyKey key: IdempotencyKey?, fingerprint: String) throws -> SaveReceipt {
        let request = DataStoreSaveChangesRequest(inserted: changes.inserted, updated: try changes.updatedWithChanges(),
                                                  deleted: changes.deleted, editingState: EditingState(author: changes.author))
        let respond = { (result: DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data in
            let remapped = changes.inserted.compactMap { snapshot in
                result.remappedIdentifiers[snapshot.persistentIdentifier].map {
                    SaveResponse.Remap(temporary: snapshot.persistentIdentifier, permanent: $0)
                }
            }
            return try WireCoding.encoder().encode(SaveResponse(storeIdentifier: result.storeIdentifier, remapped: remapped,
                                                                historyToken: result.historyToken as? DefaultHistoryToken))
        }
        return try saveOnce(idempotencyKey: key, fingerprint: fingerprint) {
            if let index = try firstMissingUpdate(changes.updated, in: store) {
                throw SaveValidation.missing(index, changes.updated[index].persistentIdentifier)
            }
            return (request, respond)
        }
    }

    /// Saves the request `prepare` makes and answers with the encoding it makes of the result,
    /// once per idempotency key: in the store's own transaction when it records receipts, else in
    /// the server's receipt book. `prepare` runs where the save does (holding the lock when calls
    /// are serialised), so what it reads of the store is what the save changes.
    func saveOnce(idempotencyKey key: IdempotencyKey?, fingerprint: String,
                  prepare: () throws -> (DataStoreSaveChangesRequest<DefaultSnapshot>,
                                         respond: (DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data)) throws -> SaveReceipt {
        defer { historyEvents.storeChanged() }
        let recording = store as? any SaveReceiptRecording
        let receiptKey = key?.stored
        func apply() throws -> SaveReceipt {
            let (request, respond) = try prepare()
            guard let receiptKey else {
                return SaveReceipt(response: try respond(try store.save(request)), isReplay: false)
            }
            if let recording {
                return try recording.save(request, receiptKey: receiptKey, fingerprint: fingerprint, response: respond)
            }
            if let receipt = try receipts.receipt(for: receiptKey, fingerprint: fingerprint) { return receipt }
            let response = try respond(try store.save(request))
            receipts.record(response, key: receiptKey, fingerprint: fingerprint)
            return SaveReceipt(response: response, isReplay: false)
        }
        do {
            // The receipt book is the server's own, and a key's check and record must not interleave.
            return receiptKey != nil && recording == nil ? try locked(apply) : try serialised(apply)
        } catch let error as PersistenceError where error.code == .idempotencyKeyReused {
            // The store names the key it stores; the client knows its own.
            throw PersistenceError(.idempotencyKeyReused, "The idempotency key \(key?.key ?? "") was used before for a different save; send each new save with a new key.")
        }
    }
}

/// A client's idempotency key in the namespace of the token that sent it.
struct IdempotencyKey: Sendable {
    /// Names the token without revealing it (see ``TokenBook``).
    var namespace: String
    /// The key as the client sent it.
    var key: String

    /// The key as the store records it.
    var stored: String { "\(namespace):\(key)" }
}

/// Save receipts kept in memory, for stores that cannot record them with the save; they last a
/// day, or until the server stops.
private final class ReceiptBook {
    private struct Entry {
        var fingerprint: String
        var response: Data
        var created: Date
    }

    private var entries: [String: Entry] = [:]
    private let lifetime: TimeInterval = 24 * 60 * 60

    func receipt(for key: String, fingerprint: String) throws -> SaveReceipt? {
        guard let entry = entries[key], Date().timeIntervalSince(entry.created) < lifetime else { return nil }
        guard entry.fingerprint == fingerprint else {
            throw PersistenceError(.idempotencyKeyReused, "The idempotency key \(key) was used before for a different save; send each new save with a new key.")
        }
        return SaveReceipt(response: entry.response, isReplay: true)
    }

    func record(_ response: Data, key: String, fingerprint: String) {
        let now = Date()
        // Pruning scans every receipt: do it once per thousand saves, not on each.
        if entries.count % 1024 == 1023 {
            entries = entries.filter { now.timeIntervalSince($0.value.created) < lifetime }
        }
        entries[key] = Entry(fingerprint: fingerprint, response: response, created: now)
    }
}
