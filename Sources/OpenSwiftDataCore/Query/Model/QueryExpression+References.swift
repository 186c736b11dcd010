extension QueryExpression {
    /// Whether this expression reads nothing but the element bound to `variable` (and constants,
    /// and elements it binds itself): no property of the fetched model, no outer element. Such a
    /// test of a to-many's elements can be run once for all fetched rows instead of per row.
    package func readsOnlyElement(_ variable: Int) -> Bool {
        free(bound: [variable])
    }

    private func free(bound: Set<Int>) -> Bool {
        switch self {
        case .value:
            return true
        case .property, .identifier:
            return false
        case .variable(let other), .elementProperty(let other, _):
            return bound.contains(other)
        case let .comparison(lhs, _, rhs, _), let .and(lhs, rhs), let .or(lhs, rhs), let .arithmetic(lhs, _, rhs),
             let .coalesce(lhs, rhs), let .stringContains(lhs, rhs, _), let .startsWith(lhs, rhs),
             let .stringCompare(lhs, rhs, _), let .collectionContains(lhs, rhs, _):
            return lhs.free(bound: bound) && rhs.free(bound: bound)
        case let .not(operand), let .negate(operand), let .forceUnwrap(operand), let .count(operand, _),
             let .isEmpty(operand, _), let .in(operand, _, _), let .isEntity(operand, _):
            return operand.free(bound: bound)
        case let .conditional(test, then, otherwise):
            return test.free(bound: bound) && then.free(bound: bound) && otherwise.free(bound: bound)
        case let .collectionAny(collection, inner, test), let .collectionAll(collection, inner, test):
            return collection.free(bound: bound) && test.free(bound: bound.union([inner]))
        }
    }
}
