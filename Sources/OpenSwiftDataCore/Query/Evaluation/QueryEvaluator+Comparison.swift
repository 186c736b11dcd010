import Foundation

extension QueryEvaluator {
    /// Swift's `==` on the values' underlying types; `nil == nil` is true, as for optionals.
    static func isEqual(_ lhs: QueryValue, _ rhs: QueryValue) throws -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.null, _), (_, .null): false
        case let (.bool(l), .bool(r)): l == r
        case let (.integer(l), .integer(r)): l == r
        case let (.double(l), .double(r)): l == r
        case let (.string(l), .string(r)): l == r
        case let (.date(l), .date(r)): l == r
        case let (.uuid(l), .uuid(r)): l == r
        case let (.data(l), .data(r)): l == r
        case let (.identifier(l), .identifier(r)): l == r
        case let (.array(l), .array(r)): try l.count == r.count && zip(l, r).allSatisfy { try isEqual($0, $1) }
        default: throw QueryEvaluationError.typeMismatch("a \(lhs.caseName)", rhs)
        }
    }

    static func compare(_ lhs: QueryValue, _ op: QueryComparisonOperator, _ rhs: QueryValue) throws -> Bool {
        switch op {
        case .equal: return try isEqual(lhs, rhs)
        case .notEqual: return !(try isEqual(lhs, rhs))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: break
        }
        switch (lhs, rhs) {
        case let (.integer(l), .integer(r)): return apply(l, op, r)
        case let (.double(l), .double(r)): return apply(l, op, r)
        case let (.string(l), .string(r)): return apply(l, op, r)
        case let (.date(l), .date(r)): return apply(l, op, r)
        case let (.uuid(l), .uuid(r)): return apply(l, op, r)
        case let (.identifier(l), .identifier(r)): return apply(l, op, r)
        default: throw QueryEvaluationError.typeMismatch("two ordered values of one kind", lhs.caseName == rhs.caseName ? lhs : rhs)
        }
    }

    /// Each type's own operator: `Double`'s `<=` is IEEE's, not `!(b < a)`.
    private static func apply<T: Comparable>(_ lhs: T, _ op: QueryComparisonOperator, _ rhs: T) -> Bool {
        switch op {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .lessThan: lhs < rhs
        case .lessThanOrEqual: lhs <= rhs
        case .greaterThan: lhs > rhs
        case .greaterThanOrEqual: lhs >= rhs
        }
    }

    /// The order `SortDescriptor` gives two values of a sort key: `nil` first when ascending, then
    /// Swift's `<`. Values neither `<` nor `>` (NaN, or kinds that do not match) are the same, as
    /// Foundation's comparators treat them; sort with a stable sort to match Swift's results.
    public static func compare(_ lhs: QueryValue, _ rhs: QueryValue, ascending: Bool) -> ComparisonResult {
        let result: ComparisonResult = switch (lhs, rhs) {
        case (.null, .null): .orderedSame
        case (.null, _): .orderedAscending
        case (_, .null): .orderedDescending
        default:
            if (try? compare(lhs, .lessThan, rhs)) == true {
                .orderedAscending
            } else if (try? compare(lhs, .greaterThan, rhs)) == true {
                .orderedDescending
            } else {
                .orderedSame
            }
        }
        guard !ascending else { return result }
        return switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
