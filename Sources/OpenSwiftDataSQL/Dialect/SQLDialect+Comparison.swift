import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// Comparisons a dialect spells its own way; nil where the common spelling is exact.
    ///
    /// A dialect that keeps NaN as a value equal to itself and greater than every number
    /// (``SQLDialect/storesNaNAsOrderedValue``), where Swift's NaN is unordered and equal to
    /// nothing, tests for NaN explicitly. Text orders by code point where the dialect names a
    /// collation for it (``SQLDialect/codePointCollation``), so that a comparison of two
    /// arguments, with no column to take its collation from, is Swift's order.
    func dialectComparison(_ lhs: QueryExpression, _ op: QueryComparisonOperator, _ rhs: QueryExpression,
                           _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String? {
        switch type.kind {
        case .double where dialect.storesNaNAsOrderedValue:
            // Each use of an operand renders it again, so that its arguments are bound again.
            func notNaN(_ operand: QueryExpression) throws -> String {
                "NOT COALESCE(\(try sql(operand, &state)) = CAST('NaN' AS \(dialect.typeName(.real))), \(dialect.literal(false)))"
            }
            switch op {
            case .equal, .notEqual:
                let equality = type.isOptional ? dialect.nullSafeOperators.equal : "="
                let equal = "(\(try sql(lhs, &state)) \(equality) \(try sql(rhs, &state)) AND \(try notNaN(lhs)))"
                return op == .equal ? equal : "(NOT \(equal))"
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
                return "(\(try sql(lhs, &state)) \(Self.orderingOperator(op)) \(try sql(rhs, &state)) AND \(try notNaN(lhs)) AND \(try notNaN(rhs)))"
            }
        case .string where op != .equal && op != .notEqual:
            guard let collation = dialect.codePointCollation else { return nil }
            return "(\(try sql(lhs, &state)) \(Self.orderingOperator(op)) \(try sql(rhs, &state)) COLLATE \(dialect.quotedIdentifier(collation)))"
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
