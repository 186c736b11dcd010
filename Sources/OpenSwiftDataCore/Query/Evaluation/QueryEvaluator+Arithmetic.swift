extension QueryEvaluator {
    /// Integer arithmetic in `Int64`, throwing where Swift traps; `Double` arithmetic as IEEE.
    static func arithmetic(_ lhs: QueryValue, _ op: QueryArithmeticOperator, _ rhs: QueryValue) throws -> QueryValue {
        switch (lhs, rhs) {
        case let (.integer(l), .integer(r)):
            return .integer(try integerArithmetic(l, op, r))
        case let (.double(l), .double(r)):
            return .double(try doubleArithmetic(l, op, r))
        default:
            throw QueryEvaluationError.typeMismatch("two numbers of one kind", lhs.caseName == rhs.caseName ? lhs : rhs)
        }
    }

    static func negate(_ value: QueryValue) throws -> QueryValue {
        switch value {
        case .integer(let integer):
            let (result, overflow) = Int64(0).subtractingReportingOverflow(integer)
            guard !overflow else { throw QueryEvaluationError(.arithmeticOverflow, "Negation overflowed Int64") }
            return .integer(result)
        case .double(let double):
            return .double(-double)
        default:
            throw QueryEvaluationError.typeMismatch("a number", value)
        }
    }

    private static func integerArithmetic(_ lhs: Int64, _ op: QueryArithmeticOperator, _ rhs: Int64) throws -> Int64 {
        if (op == .integerDivide || op == .remainder) && rhs == 0 {
            throw QueryEvaluationError(.divisionByZero, "Integer \(op) by zero")
        }
        let (result, overflow) = switch op {
        case .add: lhs.addingReportingOverflow(rhs)
        case .subtract: lhs.subtractingReportingOverflow(rhs)
        case .multiply: lhs.multipliedReportingOverflow(by: rhs)
        case .integerDivide: lhs.dividedReportingOverflow(by: rhs)
        case .remainder: lhs.remainderReportingOverflow(dividingBy: rhs)
        case .floatDivide: throw inapplicable(op, to: "integer")
        }
        guard !overflow else { throw QueryEvaluationError(.arithmeticOverflow, "Integer \(op) overflowed Int64") }
        return result
    }

    private static func doubleArithmetic(_ lhs: Double, _ op: QueryArithmeticOperator, _ rhs: Double) throws -> Double {
        switch op {
        case .add: lhs + rhs
        case .subtract: lhs - rhs
        case .multiply: lhs * rhs
        case .floatDivide: lhs / rhs
        case .integerDivide, .remainder: throw inapplicable(op, to: "double")
        }
    }

    private static func inapplicable(_ op: QueryArithmeticOperator, to kind: String) -> QueryEvaluationError {
        QueryEvaluationError(.typeMismatch, "\(op) does not apply to values of kind \(kind)")
    }
}
