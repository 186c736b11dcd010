/// What the SQL stores' history tables share: the transactions table and the indexes that
/// find a transaction's changes and a change's tombstones. Each store declares its own changes
/// and tombstones tables, which it fills differently.
package enum HistorySchema {
    package static let transactionsTable = "osd_history_transactions"
    package static let changesTable = "osd_history_changes"
    package static let tombstonesTable = "osd_history_tombstones"

    /// The transaction number (`Z_PK`), numbered by the database and never reused, and who saved.
    package static var transactions: TableDefinition {
        TableDefinition(transactionsTable, columns: [
            number,
            ColumnDefinition("timestamp", .real),
            ColumnDefinition("author", .text, isNullable: true),
            ColumnDefinition("bundle", .text),
            ColumnDefinition("process", .text),
        ], ifNotExists: true)
    }

    /// A transaction's or a change's number: only the database numbers them.
    package static var number: ColumnDefinition {
        ColumnDefinition(EntityTableSchema.keyColumn, .integer, primaryKey: .generated(acceptsSuppliedValues: false))
    }

    package static var indexes: [IndexDefinition] {
        [IndexDefinition("osd_history_changes_transaction", on: changesTable, columns: ["transactionNumber"], ifNotExists: true),
         IndexDefinition("osd_history_tombstones_change", on: tombstonesTable, columns: ["change"], ifNotExists: true)]
    }
}
