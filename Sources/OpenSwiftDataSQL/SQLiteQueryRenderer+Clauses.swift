import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// The clauses after `SELECT … FROM …`: `WHERE …` when there is a filter, then
    /// `ORDER BY …`, then `LIMIT ?`/`OFFSET ?` as the query asks.
    public func render(_ query: DataStoreQuery) throws -> SQLFragment {
        var clauses: [String] = []
        var arguments: [QueryValue] = []
        if let filter = query.filter {
            let condition = try render(filter)
            clauses.append("WHERE \(condition.sql)")
            arguments += condition.arguments
        }
        clauses.append("ORDER BY \(try render(query.sortBy))")
        if let paging = dialect.limitClause(limit: query.fetchLimit != nil, offset: query.fetchOffset != nil) {
            clauses.append(paging)
            arguments += [query.fetchLimit, query.fetchOffset].compactMap { $0.map { .integer(Int64($0)) } }
        }
        return SQLFragment(clauses.joined(separator: " "), arguments: arguments)
    }

    /// The `ORDER BY` list, NULLs first ascending and last descending, as `SortDescriptor` orders
    /// nil; the identifier column comes last so that ties have one order
    /// and `LIMIT`/`OFFSET` pages neither repeat nor skip rows.
    public func render(_ sortBy: [QuerySortKey]) throws -> String {
        let keys = try sortBy.map { key in
            switch key.kind {
            case .integer, .double, .string, .date, .uuid:
                dialect.orderTerm(try column(key.path), ascending: key.ascending)
            case .bool, .data, .identifier, .array:
                throw QueryTranslationError.unsupportedSort("Sorting by \(key.kind) values is not rendered")
            }
        }
        return (keys + [identifierColumn]).joined(separator: ", ")
    }
}
