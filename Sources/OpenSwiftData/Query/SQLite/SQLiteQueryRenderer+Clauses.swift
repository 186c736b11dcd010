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
        switch (query.fetchLimit, query.fetchOffset) {
        case let (limit?, offset?):
            clauses.append("LIMIT ? OFFSET ?")
            arguments += [.integer(Int64(limit)), .integer(Int64(offset))]
        case let (limit?, nil):
            clauses.append("LIMIT ?")
            arguments.append(.integer(Int64(limit)))
        case let (nil, offset?):
            // SQLite has no OFFSET without LIMIT; -1 means no limit.
            clauses.append("LIMIT -1 OFFSET ?")
            arguments.append(.integer(Int64(offset)))
        case (nil, nil):
            break
        }
        return SQLFragment(clauses.joined(separator: " "), arguments: arguments)
    }

    /// The `ORDER BY` list. SQLite puts NULLs first ascending and last descending, as
    /// `SortDescriptor` orders nil; the identifier column comes last so that ties have one order
    /// and `LIMIT`/`OFFSET` pages neither repeat nor skip rows.
    public func render(_ sortBy: [QuerySortKey]) throws -> String {
        let keys = try sortBy.map { key in
            switch key.kind {
            case .integer, .double, .string, .date, .uuid:
                "\(try column(key.path)) \(key.ascending ? "ASC" : "DESC")"
            case .bool, .data, .identifier, .array:
                throw QueryTranslationError.unsupportedSort("Sorting by \(key.kind) values is not rendered")
            }
        }
        return (keys + [identifierColumn]).joined(separator: ", ")
    }
}
