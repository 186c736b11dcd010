import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// Receipts live in the store file, in `osd_save_receipts`, written in the save's own transaction:
/// a save and its receipt commit together or not at all. Receipts older than a day are dropped.
extension DefaultStore: SaveReceiptRecording {
    static let receiptLifetime: TimeInterval = 24 * 60 * 60

    /// Saves the request and records its response under the key in the same transaction, or
    /// returns the recorded response of an earlier save with that key.
    public final func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, receiptKey key: String, fingerprint: String,
                           response: (DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data) throws -> SaveReceipt {
        try requireWritable("save")
        return try write("Saving") { db in
            let table = SQL.quote(SQL.receiptsTable)
            // `created` holds seconds since 1970, which SQLite has no type for.
            try db.execute(sql: SQLiteDialect().render(StoreTables.receipts(created: ColumnDefinition("created", .real))))
            if let row = try Row.fetchOne(db, sql: "SELECT \"fingerprint\", \"response\" FROM \(table) WHERE \"key\" = ?", arguments: [key]) {
                guard row[0] as String == fingerprint else {
                    throw PersistenceError(.idempotencyKeyReused, "The idempotency key \(key) was used before for a different save; send each new save with a new key.")
                }
                return SaveReceipt(response: row[1], isReplay: true)
            }
            var save = SQLiteSave(store: self, db: db)
            let keys = try save.run(request)
            let data = try response(DataStoreSaveChangesResult(for: storeIdentifier, remappedIdentifiers: SQLiteSave.remap(request, keys: keys, store: self),
                                                               historyToken: save.historyToken))
            let now = Date().timeIntervalSince1970
            try db.execute(sql: "DELETE FROM \(table) WHERE \"created\" < ?", arguments: [now - Self.receiptLifetime])
            try db.execute(sql: "INSERT INTO \(table) (\"key\", \"fingerprint\", \"response\", \"created\") VALUES (?, ?, ?, ?)",
                           arguments: [key, fingerprint, data, now])
            return SaveReceipt(response: data, isReplay: false)
        }
    }
}
