import OpenSwiftDataCore
import PostgresNIO

extension PostgresStore {
    /// `SELECT COUNT(*) FROM (SELECT 1 FROM "T" [WHERE …] …) AS counted`: without the renderer's
    /// tie-breaking `ORDER BY` when the query is not paged, since no order changes a count and
    /// PostgreSQL would sort every matching row before counting them.
    func countStatement(_ query: DataStoreQuery, layout: PostgresEntityLayout) throws -> (sql: String, binds: PostgresBindings) {
        var unsorted = query
        unsorted.sortBy = []
        let select = try statement(unsorted, layout: layout, columns: .one)
        let order = " ORDER BY \(layout.keyColumn)"
        let isPaged = query.fetchLimit != nil || query.fetchOffset != nil
        let inner = !isPaged && select.sql.hasSuffix(order) ? String(select.sql.dropLast(order.count)) : select.sql
        return ("SELECT COUNT(*) FROM (\(inner)) AS counted", select.binds)
    }
}
