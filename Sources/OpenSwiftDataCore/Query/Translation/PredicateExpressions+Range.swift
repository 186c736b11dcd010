import Foundation

extension PredicateExpressions.RangeExpressionContains: QueryTranslatable {
    /// `range.contains(x)` on a captured range is `lower <= x && x < upper` (`x <= upper` when
    /// closed), as in Swift. Ranges built inside the predicate (`a..<b`) are not translated: Swift
    /// checks their bounds when evaluating, and throws or traps when they are out of order.
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        guard isOrderedByQueryValue(Element.Output.self),
              let captured = range as? PredicateExpressions.Value<RangeExpression.Output>,
              let range = captured.value as? any QueryRangeValue,
              let lower = QueryValue(converting: range.queryLowerBound),
              let upper = QueryValue(converting: range.queryUpperBound) else {
            throw QueryTranslationError.unsupported(node: RangeExpression.self)
        }
        let valueType = try state.valueType(of: Element.Output.self)
        let upperOperator: QueryComparisonOperator = type(of: range).isQueryClosedRange ? .lessThanOrEqual : .lessThan
        let element = try state.translate(element)
        return .and(
            .comparison(.value(lower), .lessThanOrEqual, element, type: valueType),
            .comparison(element, upperOperator, .value(upper), type: valueType)
        )
    }
}

/// `Range` and `ClosedRange`, whose bounds the translator reads without knowing their type.
protocol QueryRangeValue {
    static var isQueryClosedRange: Bool { get }
    var queryLowerBound: Any { get }
    var queryUpperBound: Any { get }
}

extension Range: QueryRangeValue {
    static var isQueryClosedRange: Bool { false }
    var queryLowerBound: Any { lowerBound }
    var queryUpperBound: Any { upperBound }
}

extension ClosedRange: QueryRangeValue {
    static var isQueryClosedRange: Bool { true }
    var queryLowerBound: Any { lowerBound }
    var queryUpperBound: Any { upperBound }
}
