import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// Filters PostgreSQL cannot compute as Swift does (a string's `contains` and `starts(with:)` by
/// grapheme cluster, case- and diacritic-insensitive tests, floating-point division) still run
/// in the store: SQL selects a superset of the matching rows, which the store then tests with
/// Swift's own semantics (`QueryEvaluator`) before paging them. Only the parts SQL cannot compute
/// are widened; the rest of the filter, and the sort, stay in SQL.
///
/// That needs every value the filter reads in the fetched rows: filters reading through
/// relationships are still left to the context.
extension PostgresStore {
    /// The query's rows, filtered in Swift after a SQL prefilter; nil when the filter reads what
    /// a row does not hold.
    func swiftFilteredRows(_ query: DataStoreQuery, layout: PostgresEntityLayout) throws -> [DataStoreRow]? {
        guard let filter = query.filter, Self.readsOnlyOwnAttributes(filter, layout: layout) else { return nil }
        if !query.sortBy.isEmpty, try sortsByNaN(query, layout: layout) { throw DataStoreError.preferInMemorySort }
        let renderer = renderer(for: layout)
        var arguments: [QueryValue] = []
        let column = { [layouts] (path: QueryPropertyPath) in try Self.columnExpression(path, from: layout.entityName, layouts: layouts, qualifier: nil) }
        let condition = Self.condition(filter, superset: true, renderer, column, &arguments)
        let order: String
        do {
            order = try renderer.render(query.sortBy)
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemorySort
        }
        let entity = layout.entityCondition.map { "\($0) AND " } ?? ""
        let sql = "SELECT \(layout.selectList) FROM \(layout.table) WHERE \(entity)\(condition) ORDER BY \(order)"
        var binds = PostgresBindings()
        do {
            for argument in arguments { try PostgresValueCoding.bind(argument, into: &binds) }
        } catch is QueryTranslationError {
            return nil
        }
        let candidates = try rows((sql, binds), layout: layout)
        var matching: [DataStoreRow] = []
        do {
            for row in candidates where try Self.matches(filter, row, layout) { matching.append(row) }
        } catch is QueryEvaluationError {
            return nil
        } catch is QueryTranslationError {
            return nil
        }
        let start = min(query.fetchOffset ?? 0, matching.count)
        let end = query.fetchLimit.map { min(start + $0, matching.count) } ?? matching.count
        return Array(matching[start..<end])
    }

    /// Whether every property the filter reads is an attribute of the fetched row itself.
    static func readsOnlyOwnAttributes(_ filter: QueryExpression, layout: PostgresEntityLayout) -> Bool {
        func check(_ expression: QueryExpression) -> Bool {
            switch expression {
            case .property(let path):
                guard path.components.count == 1, let column = layout.column(named: path.components[0]) else { return false }
                return column.hasColumn && column.storage != .toOne
            case .value, .identifier, .variable:
                return true
            case .elementProperty, .isEntity:
                return false
            case let .comparison(lhs, _, rhs, _), let .and(lhs, rhs), let .or(lhs, rhs), let .arithmetic(lhs, _, rhs),
                 let .stringContains(lhs, rhs, _), let .startsWith(lhs, rhs), let .stringCompare(lhs, rhs, _),
                 let .coalesce(lhs, rhs), let .collectionContains(lhs, rhs, _), let .collectionAny(lhs, _, rhs), let .collectionAll(lhs, _, rhs):
                return check(lhs) && check(rhs)
            case let .not(operand), let .negate(operand), let .forceUnwrap(operand), let .count(operand, _), let .isEmpty(operand, _),
                 let .in(operand, _, _):
                return check(operand)
            case let .conditional(test, then, otherwise):
                return check(test) && check(then) && check(otherwise)
            }
        }
        return check(filter)
    }

    /// SQL that every row passing `expression` passes (`superset`), or that only rows passing it
    /// pass (not `superset`, under a `NOT`): the renderer's exact SQL where it has one, else a
    /// widened (narrowed) test. Its placeholders' values are appended to `arguments` in order.
    static func condition(_ expression: QueryExpression, superset: Bool, _ renderer: SQLiteQueryRenderer,
                          _ column: (QueryPropertyPath) throws -> String, _ arguments: inout [QueryValue]) -> String {
        if let exact = try? renderer.render(expression, firstPlaceholder: arguments.count + 1) {
            arguments += exact.arguments
            return "(\(exact.sql))"
        }
        switch expression {
        case let .and(lhs, rhs):
            let left = condition(lhs, superset: superset, renderer, column, &arguments)
            return "(\(left) AND \(condition(rhs, superset: superset, renderer, column, &arguments)))"
        case let .or(lhs, rhs):
            let left = condition(lhs, superset: superset, renderer, column, &arguments)
            return "(\(left) OR \(condition(rhs, superset: superset, renderer, column, &arguments)))"
        case .not(let operand):
            return "(NOT \(condition(operand, superset: !superset, renderer, column, &arguments)))"
        // Text is compared in NFC (the column expression), as bound text is: a string that contains another
        // character by character contains its code points too, so `strpos` finds every match
        // (and some that split a character, which the Swift test then drops).
        case let .stringContains(.property(path), .value(.string(other)), options) where superset && options.isEmpty:
            guard let column = try? column(path) else { return "TRUE" }
            arguments.append(.string(other))
            return "COALESCE(strpos(\(column), $\(arguments.count)) > 0, TRUE)"
        case let .startsWith(.property(path), .value(.string(prefix))) where superset:
            guard let column = try? column(path) else { return "TRUE" }
            arguments.append(.string(prefix))
            return "COALESCE(starts_with(\(column), $\(arguments.count)), TRUE)"
        default:
            return superset ? "TRUE" : "FALSE"
        }
    }

    /// Whether the row passes the filter, with Swift's semantics.
    private static func matches(_ filter: QueryExpression, _ row: DataStoreRow, _ layout: PostgresEntityLayout) throws -> Bool {
        let evaluator = QueryEvaluator(identifier: row.persistentIdentifier) { path in
            guard let name = path.components.first, let slot = layout.info.slot(named: name), let raw = row.values[slot] else { return .null }
            return try SnapshotQueryEngine.queryValue(of: raw, entityName: layout.entityName, name: name)
        }
        return try evaluator.matches(filter)
    }
}
