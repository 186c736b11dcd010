import GRDB

extension DefaultStore {
    /// A GRDB row of `SELECT <layout.selectList>` as a snapshot, for callers that fetched `Row`s
    /// themselves (the store-neutral queries of `QueryableDataStore` on main). The store's own
    /// fetches read values straight from SQLite through ``snapshots(_:layout:db:)``, which such
    /// callers should move to.
    func snapshot(of row: Row, layout: SQLiteEntityLayout, related: [String: [Int64: [Int64]]]) throws -> DefaultSnapshot {
        try snapshot(of: Array(row.databaseValues), layout: layout, related: related)
    }
}
