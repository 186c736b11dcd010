import Foundation

/// The receipts of the saves made with an idempotency key (see `SaveReceiptRecording`), kept in
/// a file beside the store's, `.<file>.receipts`, so a retry after a restart is answered, not
/// applied again. Receipts last a day, as the default store's do.
///
/// Two files cannot be replaced in one step, so a receipt is written first, marked pending and
/// naming the digest of the store file its save writes; the store file follows. Before the
/// store file next changes, the pending receipt is settled: kept if the store file is the one it
/// names (the save landed), dropped if not (the process died in between). Only the last receipt
/// can be pending, since every change of the store file settles it first.
struct ReceiptLog: Codable {
    struct Entry: Codable {
        var key: String
        var fingerprint: String
        var response: Data
        var created: Date
        /// ``ReceiptLog/digest(_:)`` of the store file the save wrote.
        var file: String
        var pending: Bool
    }

    static let lifetime: TimeInterval = 24 * 60 * 60

    private(set) var entries: [Entry] = []

    func entry(forKey key: String) -> Entry? {
        entries.last { $0.key == key }
    }

    var pendingEntry: Entry? {
        entries.last.flatMap { $0.pending ? $0 : nil }
    }

    /// Keeps the pending entry when the store file is the one it names, drops it otherwise.
    mutating func settle(fileDigest: String) {
        guard let last = entries.last, last.pending else { return }
        if last.file == fileDigest {
            entries[entries.count - 1].pending = false
        } else {
            entries.removeLast()
        }
    }

    mutating func append(_ entry: Entry, now: Date) {
        entries.removeAll { now.timeIntervalSince($0.created) >= Self.lifetime }
        entries.append(entry)
    }

    /// FNV-1a of the bytes, as hex: names a version of the store file.
    static func digest(_ bytes: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16) + "-\(bytes.count)"
    }
}

/// What a ``JSONStore`` knows of its receipt file.
struct ReceiptState {
    var log = ReceiptLog()
    /// The version of the receipt file `log` holds; nil when there was none.
    var stamp: FileStamp?
    /// The digest of the store file this process last wrote, with that file's stamp: settling then
    /// needs no second read of the file.
    var written: (stamp: FileStamp, digest: String)?
}
