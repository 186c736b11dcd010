import Foundation
import OpenSwiftData

/// Saves applied once per idempotency key, with receipts in a file beside the store's (see
/// ``ReceiptLog``), so `StoreServer` answers a retried save after a restart with the first answer.
extension JSONStore: SaveReceiptRecording {
    /// Saves the request and records its response under the key, or returns the recorded response
    /// of an earlier save with that key and fingerprint without saving again.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, receiptKey key: String, fingerprint: String,
                     response: (DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data) throws -> SaveReceipt {
        var receipt: SaveReceipt?
        try write("save", replay: {
            guard let entry = receipts.log.entry(forKey: key) else { return false }
            guard entry.fingerprint == fingerprint else {
                throw PersistenceError(.idempotencyKeyReused, "The idempotency key \(key) was used before for a different save; send each new save with a new key.")
            }
            receipt = SaveReceipt(response: entry.response, isReplay: true)
            return true
        }, change: { archive in
            var save = JSONSave(store: self, archive: archive)
            let remap = try save.run(request)
            archive = save.archive
            let token = recordHistory(request, remapped: remap, in: &archive)
            receipt = SaveReceipt(response: try response(DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remap, historyToken: token)),
                                  isReplay: false)
        }, beforeReplacing: { bytes in
            guard let receipt else { return }
            var log = self.receipts.log
            log.append(ReceiptLog.Entry(key: key, fingerprint: fingerprint, response: receipt.response, created: Date(),
                                        file: ReceiptLog.digest(bytes), pending: true), now: Date())
            try self.writeReceipts(log)
        })
        guard let receipt else {
            throw JSONStoreError(.ioFailure, "The save with idempotency key \(key) ended without an answer.", url: url)
        }
        return receipt
    }

    var receiptsURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).receipts")
    }

    /// Reads the receipt file when it changed, and settles its pending receipt against the store
    /// file held (call after `reloadIfChanged`, holding both locks), in memory only: returns
    /// whether the log changed, and so must be written before the store file changes.
    func settleReceipts() throws -> Bool {
        let current: FileStamp?
        do {
            current = try FileStamp.current(atPath: receiptsURL.path)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot check \(receiptsURL.path): \(error).", url: url, underlying: error)
        }
        if current != receipts.stamp {
            receipts.log = try readReceipts()
            receipts.stamp = current
        }
        guard receipts.log.pendingEntry != nil else { return false }
        receipts.log.settle(fileDigest: try heldFileDigest())
        return true
    }

    /// The digest of the store file as it is on disk now ("" when there is none).
    private func heldFileDigest() throws -> String {
        if let written = receipts.written, written.stamp == stamp { return written.digest }
        do {
            return try DurableFile.read(url).map { ReceiptLog.digest($0.bytes) } ?? ""
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot read \(url.path): \(error). Check the file's permissions.", url: url, underlying: error)
        }
    }

    private func readReceipts() throws -> ReceiptLog {
        let file: (bytes: Data, stamp: FileStamp)?
        do {
            file = try DurableFile.read(receiptsURL)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot read \(receiptsURL.path): \(error). Check the file's permissions.", url: url, underlying: error)
        }
        guard let file else { return ReceiptLog() }
        do {
            return try JSONDecoder().decodeChecked(ReceiptLog.self, from: file.bytes)
        } catch {
            throw JSONStoreError(.unreadableFile, "\(receiptsURL.path), the store's record of saves made with an idempotency key, cannot be read (\(error)). Remove it to go on (retried saves older than its removal are then applied again).", url: url, underlying: error)
        }
    }

    func writeReceipts(_ log: ReceiptLog) throws {
        let bytes = try JSONEncoder().encode(log)
        do throws(DurableFile.ReplaceFailure) {
            receipts.stamp = try DurableFile.replace(receiptsURL, with: bytes)
        } catch .notReplaced(let error) {
            throw JSONStoreError(.ioFailure, "Writing \(receiptsURL.path) failed: \(error). \(error.advice) Nothing was saved.", url: url, underlying: error)
        } catch .notSynced(_, let stamp) {
            // The store file is replaced in the same directory next, and its sync covers this one.
            receipts.stamp = stamp
        }
        receipts.log = log
    }
}
