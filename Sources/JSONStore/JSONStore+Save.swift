import Foundation
import OpenSwiftData

extension JSONStore {
    /// Writes one context save: deletes, then updates, then inserts (each getting a new identifier,
    /// or the identifier of the model it equals on a uniqueness constraint), references rewritten
    /// through the remap table. The file is replaced only once everything checked out, and the
    /// store's memory only once the file is written, so a failed save changes nothing.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        let (remap, token) = try write("save") { archive in
            var save = JSONSave(store: self, archive: archive)
            let remap = try save.run(request)
            archive = save.archive
            return (remap, recordHistory(request, remapped: remap, in: &archive))
        }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remap, historyToken: token)
    }

    /// Deletes the entity's models matching the predicate, in one save of the file.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try write("delete") { archive in
            let query = try DataStoreQuery(FetchDescriptor<T>(predicate: request.predicate), translator: translator(for: T.self))
            let doomed = try evaluate(query, in: archive)
            archive.removeInBatch(Set(doomed.map(\.persistentIdentifier)))
            recordDeletes(doomed, author: request.editingState.author, in: &archive)
        }
    }

    /// Empties the store (the file then holds an empty array).
    public func erase() throws {
        try write("erase") { archive in
            let (record, history) = (archive.record, archive.history)
            archive = SnapshotArchive()
            archive.record = record
            archive.history = history
        }
    }

    /// Runs `change` on a copy of the latest archive, holding the file lock, writes the result
    /// durably, and only then adopts it.
    func write<T>(_ action: String, _ change: (inout SnapshotArchive) throws -> T) throws -> T {
        var result: T?
        try write(action, replay: { false }, change: { result = try change(&$0) }, beforeReplacing: nil)
        return result!
    }

    /// The steps of every write: settle the receipt file (``ReceiptLog``), answer from it when
    /// `replay` says so, else stage `change`, let `beforeReplacing` record a receipt for the new
    /// file's bytes, and replace the file.
    func write(_ action: String, replay: () throws -> Bool, change: (inout SnapshotArchive) throws -> Void,
               beforeReplacing: ((Data) throws -> Void)?) throws {
        try lock.withLock {
            try exclusively(action) {
                try reloadIfChanged()
                let settled = try settleReceipts()
                do {
                    if try replay() {
                        if settled { try writeReceipts(receipts.log) }
                        return
                    }
                    var staged = archive
                    try change(&staged)
                    let bytes: Data
                    do {
                        bytes = try staged.encodedFile(with: coder)
                    } catch {
                        throw JSONStoreError(.invalidValue, "A model cannot be encoded as JSON (\(error)); its properties must be Codable. Nothing was saved.", url: url, underlying: error)
                    }
                    if let beforeReplacing {
                        try beforeReplacing(bytes)
                    } else if settled {
                        try writeReceipts(receipts.log)
                    }
                    let unsynced: POSIXFailure?
                    do throws(DurableFile.ReplaceFailure) {
                        stamp = try DurableFile.replace(url, with: bytes)
                        unsynced = nil
                    } catch .notReplaced(let error) {
                        throw JSONStoreError(.ioFailure, "Writing \(url.path) failed: \(error). \(error.advice) Then save again: the previous file is intact and nothing was saved.", url: url, underlying: error)
                    } catch .notSynced(let error, let newStamp) {
                        stamp = newStamp
                        unsynced = error
                    }
                    if beforeReplacing != nil, let stamp { receipts.written = (stamp, ReceiptLog.digest(bytes)) }
                    archive = staged
                    if let unsynced {
                        throw JSONStoreError(.notSynced, "The \(action) was applied: \(url.path) holds it, but syncing its directory failed (\(unsynced)), so a power loss may undo it. Do not make the same changes again, they are in the file (discard the context's with rollback()); a retry with the same idempotency key is answered without applying them twice. \(unsynced.advice)", url: url, underlying: unsynced)
                    }
                } catch {
                    // The log settled in memory may not be on disk: read it again next time.
                    if settled { receipts.stamp = nil }
                    throw error
                }
            }
        }
    }
}
