import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// The clauses after `SELECT … FROM …`: `WHERE …` when there is a filter, then
    /// `ORDER BY …`, then the paging the query asks for, its placeholders numbered from
    /// `firstPlaceholder`.
    public func render(_ query: DataStoreQuery, firstPlaceholder: Int = 1) throws -> SQLFragment {
        var state = SQLiteRenderState(dialect: dialect, firstPlaceholder: firstPlaceholder)
        var clauses: [String] = []
        if let filter = query.filter {
            clauses.append("WHERE \(try sql(filter, &state))")
        }
        clauses.append("ORDER BY \(try render(query.sortBy))")
        if let paging = paging(limit: query.fetchLimit, offset: query.fetchOffset, &state) { clauses.append(paging) }
        return SQLFragment(clauses.joined(separator: " "), arguments: state.arguments)
    }

    /// The dialect's paging clause (``SQLDialect/pagingClause(limit:offset:bind:)``).
    func paging(limit: Int?, offset: Int?, _ state: inout SQLiteRenderState) -> String? {
        dialect.pagingClause(limit: limit, offset: offset) { state.bind(.integer(Int64($0))) }
    }

    /// The `ORDER BY` list, NULLs first ascending and last descending, as `SortDescriptor` orders
    /// nil; the identifier column comes last so that ties have one order
    /// and `LIMIT`/`OFFSET` pages neither repeat nor skip rows.
    public func render(_ sortBy: [QuerySortKey]) throws -> String {
        let keys = try sortBy.map { key in
            switch key.kind {
            case .integer, .double, .string, .date, .uuid:
                orderTerm(try column(key.path), ascending: key.ascending)
            case .bool, .data, .identifier, .array:
                throw QueryTranslationError.unsupportedSort("Sorting by \(key.kind) values is not rendered")
            }
        }
        return (keys + [identifierColumn]).joined(separator: ", ")
    }
}

extension SQLiteQueryRenderer {
    /// An `ORDER BY` term, nil first ascending and last descending, as `SortDescriptor` orders it.
    func orderTerm(_ column: String, ascending: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        guard !dialect.ordersNullsFirst else { return "\(column) \(direction)" }
        return "\(column) \(direction) \(ascending ? "NULLS FIRST" : "NULLS LAST")"
    }
}
