import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// Swift's `==` on optionals is true for `nil == nil`, so optional operands compare with
    /// `IS`/`IS NOT`, which never yield NULL; non-optional ones with `=`/`<>`, which can use indexes.
    func comparison(_ lhs: QueryExpression, _ op: QueryComparisonOperator, _ rhs: QueryExpression, _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String {
        if case .value(.null) = rhs {
            return "(\(try sql(lhs, &state)) \(op == .notEqual ? "IS NOT" : "IS") NULL)"
        }
        if case .value(.null) = lhs {
            return "(\(try sql(rhs, &state)) \(op == .notEqual ? "IS NOT" : "IS") NULL)"
        }
        if let constant = try constantComparison(lhs, op, rhs, type) {
            return constant
        }
        if let special = try dialectComparison(lhs, op, rhs, type, &state) {
            return special
        }
        let sqlOperator = switch op {
        case .equal: type.isOptional ? dialect.nullSafeOperators.equal : "="
        case .notEqual: type.isOptional ? dialect.nullSafeOperators.notEqual : "<>"
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
        return "(\(try sql(lhs, &state)) \(sqlOperator) \(try sql(rhs, &state)))"
    }

    /// Comparisons whose result is known without the row: with NaN (never equal, never ordered)
    /// and with an identifier of another store or entity (never equal).
    private func constantComparison(_ lhs: QueryExpression, _ op: QueryComparisonOperator, _ rhs: QueryExpression, _ type: QueryValueType) throws -> String? {
        let never = dialect.literal(op == .notEqual)
        if case .value(let value) = lhs, value.containsNaN { return never }
        if case .value(let value) = rhs, value.containsNaN { return never }
        switch type.kind {
        case .array:
            throw QueryTranslationError.unsupported("Comparing whole collections is not rendered")
        case .identifier:
            guard op == .equal || op == .notEqual else {
                throw QueryTranslationError.unsupported("Ordering identifiers is not rendered")
            }
            guard lhs.isRowIdentifierOperand, rhs.isRowIdentifierOperand else {
                throw QueryTranslationError.unsupported("Comparing relationships with identifiers is not rendered yet")
            }
            for case .value(let value) in [lhs, rhs] where storedValue(value) == nil {
                return never
            }
            return nil
        default:
            return nil
        }
    }

    /// `list.contains(element)`: `IN` drops nil and NaN from the list (NaN equals nothing; nil is
    /// tested with `IS NULL`) and keeps a nil element from making the result NULL.
    func membership(_ element: QueryExpression, _ list: [QueryValue], _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String {
        if type.kind == .array {
            throw QueryTranslationError.unsupported("Looking up whole collections in a list is not rendered")
        }
        if type.kind == .identifier, !element.isRowIdentifierOperand {
            throw QueryTranslationError.unsupported("Looking up relationships in a list of identifiers is not rendered yet")
        }
        let containsNil = list.contains(.null)
        let values = list.filter { $0 != .null && !$0.containsNaN }.compactMap(storedValue)
        if values.isEmpty {
            return type.isOptional && containsNil ? "(\(try sql(element, &state)) IS NULL)" : dialect.literal(false)
        }
        guard type.isOptional else {
            return "(\(try inList(try sql(element, &state), values, &state)))"
        }
        let nilTest = containsNil ? "IS NULL OR" : "IS NOT NULL AND"
        return "(\(try sql(element, &state)) \(nilTest) \(try inList(try sql(element, &state), values, &state)))"
    }

    /// `element IN (…)`, or for a list longer than the dialect's threshold the list bound as one
    /// value (``SQLDialect/listMembership(_:_:)``), where the dialect can.
    private func inList(_ element: String, _ values: [QueryValue], _ state: inout SQLiteRenderState) throws -> String {
        if values.count > dialect.largeListThreshold, let membership = dialect.listMembership(element, state.nextPlaceholder) {
            _ = state.bind(.array(values))
            return membership
        }
        return "\(element) IN (\(values.map { state.bind($0) }.joined(separator: ", ")))"
    }
}

extension QueryExpression {
    /// The fetched row's identifier or a constant: the only identifier operands rendered so far.
    var isRowIdentifierOperand: Bool {
        switch self {
        case .identifier, .value: true
        default: false
        }
    }
}
