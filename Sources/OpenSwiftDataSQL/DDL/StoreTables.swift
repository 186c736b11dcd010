/// The store's own tables beside the models' that both SQL stores keep alike.
package enum StoreTables {
    package static let metadataTable = "osd_metadata"
    package static let receiptsTable = "osd_save_receipts"

    /// `osd_metadata`: one text value per key (the store identifier, the schema record, …).
    package static func metadata(ifNotExists: Bool) -> TableDefinition {
        TableDefinition(metadataTable, columns: [ColumnDefinition("key", .text, primaryKey: .supplied), ColumnDefinition("value", .text)],
                        ifNotExists: ifNotExists)
    }

    /// `osd_save_receipts`: an idempotent save's response by its key; `created`, which each store
    /// types its own way, dates it for expiry.
    package static func receipts(created: ColumnDefinition) -> TableDefinition {
        TableDefinition(receiptsTable, columns: [
            ColumnDefinition("key", .text, primaryKey: .supplied), ColumnDefinition("fingerprint", .text), ColumnDefinition("response", .blob), created,
        ], ifNotExists: true)
    }
}
