import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// Comparisons a dialect spells its own way; nil where the common spelling is exact.
    ///
    /// PostgreSQL's `double precision` holds NaN as a value equal to itself and greater than every
    /// number, where Swift's NaN is unordered and equal to nothing: such comparisons test for NaN
    /// explicitly. Its text comparison follows the column's collation; a comparison of two
    /// arguments (no column) names `"C"`, Swift's order on NFC text.
    func dialectComparison(_ lhs: QueryExpression, _ op: QueryComparisonOperator, _ rhs: QueryExpression,
                           _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String? {
        guard dialect.kind == .postgreSQL else { return nil }
        switch type.kind {
        case .double:
            // Each use of an operand renders it again, so that its arguments are bound again.
            func notNaN(_ operand: QueryExpression) throws -> String {
                "NOT COALESCE(\(try sql(operand, &state)) = 'NaN'::float8, FALSE)"
            }
            switch op {
            case .equal, .notEqual:
                let equality = type.isOptional ? dialect.nullSafeOperator(equal: true) : "="
                let equal = "(\(try sql(lhs, &state)) \(equality) \(try sql(rhs, &state)) AND \(try notNaN(lhs)))"
                return op == .equal ? equal : "(NOT \(equal))"
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
                return "(\(try sql(lhs, &state)) \(Self.orderingOperator(op)) \(try sql(rhs, &state)) AND \(try notNaN(lhs)) AND \(try notNaN(rhs)))"
            }
        case .string where op != .equal && op != .notEqual:
            return "(\(try sql(lhs, &state)) \(Self.orderingOperator(op)) \(try sql(rhs, &state)) COLLATE \"C\")"
        default:
            return nil
        }
    }

    private static func orderingOperator(_ op: QueryComparisonOperator) -> String {
        switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .equal: "="
        case .notEqual: "<>"
        }
    }
}
