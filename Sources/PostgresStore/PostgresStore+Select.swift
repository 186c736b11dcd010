import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// The `SELECT`s of fetches, counts and deletes. Each query shape (``DataStoreQueryShape``) is
/// rendered once; a later query of the shape binds its constants into the same SQL.
extension PostgresStore {
    /// What a `SELECT` of the store reads of each row.
    enum SelectColumns: Hashable, Sendable {
        /// The key, then every stored column (``PostgresEntityLayout/selectList``).
        case models
        case keys
        /// `1`, for a count.
        case one
    }

    /// What the store renders of one query shape.
    struct SelectVariant: Hashable, Sendable {
        let columns: SelectColumns
        let includingSubentities: Bool
    }

    /// `SELECT <columns> FROM "T" [WHERE …] ORDER BY … [LIMIT … OFFSET …]`, numbered and bound;
    /// of a hierarchy's table, the entity's own rows (`includingSubentities`: its subentities' too).
    func statement(_ query: DataStoreQuery, layout: PostgresEntityLayout, columns: SelectColumns,
                   includingSubentities: Bool = false) throws -> (sql: String, binds: PostgresBindings) {
        if !query.sortBy.isEmpty, try sortsByNaN(query, layout: layout) { throw DataStoreError.preferInMemorySort }
        let variant = SelectVariant(columns: columns, includingSubentities: includingSubentities)
        var binds = PostgresBindings()
        let sql: String
        do {
            if let shape = DataStoreQueryShape(query, longestList: PostgreSQLDialect().largeListThreshold),
               let plan = try plan(for: shape, variant, layout: layout) {
                sql = plan.sql
                for slot in plan.slots { try PostgresValueCoding.bind(shape.constants[slot], into: &binds) }
            } else {
                let rendered = try renderSelect(query, variant, layout: layout)
                sql = rendered.sql
                for argument in rendered.arguments { try PostgresValueCoding.bind(argument, into: &binds) }
            }
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemoryFilter
        }
        // In the order of `SQLDialect.pagingClause`.
        if let limit = query.fetchLimit { binds.append(Int64(limit)) }
        if let offset = query.fetchOffset { binds.append(Int64(offset)) }
        return (sql, binds)
    }

    /// The statement kept for `shape`, rendered and kept the first time it is seen; nil when its
    /// SQL would not serve every query of the shape.
    private func plan(for shape: DataStoreQueryShape, _ variant: SelectVariant, layout: PostgresEntityLayout) throws -> ShapedStatement? {
        if let plan = selectPlans.plan(for: shape, variant) { return plan }
        let rendered = try renderSelect(shape.query, variant, layout: layout)
        guard let plan = ShapedStatement(sql: rendered.sql, renderedArguments: rendered.arguments, constantCount: shape.constants.count) else {
            return nil
        }
        selectPlans.keep(plan, for: shape, variant)
        return plan
    }

    /// The whole statement, placeholders numbered, with the filter's arguments (the paging's are
    /// the query's limit and offset, bound last).
    private func renderSelect(_ query: DataStoreQuery, _ variant: SelectVariant, layout: PostgresEntityLayout) throws -> SQLFragment {
        var unpaged = query
        unpaged.fetchLimit = nil
        unpaged.fetchOffset = nil
        let renderer = renderer(for: layout)
        let clauses: SQLFragment
        do {
            let entity = variant.includingSubentities ? layout.hierarchyCondition : layout.entityCondition
            clauses = try entity.map { try Self.clauses(unpaged, renderer, keepingTo: $0) } ?? renderer.render(unpaged)
        } catch let error as QueryTranslationError {
            throw error.kind == .unsupportedSort ? DataStoreError.preferInMemorySort : DataStoreError.preferInMemoryFilter
        }
        let columns = switch variant.columns {
        case .models: layout.selectList
        case .keys: layout.keyColumn
        case .one: "1"
        }
        var sql = "SELECT \(columns) FROM \(layout.table) \(clauses.sql)"
        // The paging's placeholders follow the filter's; its values are bound per query.
        let dialect = PostgreSQLDialect()
        var position = clauses.arguments.count
        func next() -> String {
            position += 1
            return dialect.placeholder(position)
        }
        if let paging = dialect.pagingClause(limit: query.fetchLimit, offset: query.fetchOffset, bind: { _ in next() }) {
            sql += " \(paging)"
        }
        return SQLFragment(sql, arguments: clauses.arguments)
    }
}
