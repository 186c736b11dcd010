/// A query's shape: the query with each constant replaced by its position among the constants.
///
/// Queries that differ only in their constants (`$0.id == a`, `$0.id == b`) share a shape, so a
/// store can keep what it made of one shape (rendered SQL) and bind the next query's constants.
/// Only constants a store treats alike whatever their value take part: a nil, a NaN, an
/// identifier (which names a store and entity) or an array changes how a query is rendered, so a
/// query holding one has no shape.
package struct DataStoreQueryShape: Hashable, Sendable {
    /// The query, with `.integer(n)` for the n-th constant and 0 for a limit or offset it has.
    package let query: DataStoreQuery
    /// The constants, in the order of their positions.
    package let constants: [QueryValue]

    /// `longestList`: a store that renders longer `in` lists differently (as one argument) gives
    /// queries with such a list no shape.
    package init?(_ query: DataStoreQuery, longestList: Int = .max) {
        var constants: [QueryValue] = []
        var shaped = query
        if let filter = query.filter {
            guard let numbered = filter.numberingConstants(&constants, longestList: longestList) else { return nil }
            shaped.filter = numbered
        }
        shaped.fetchLimit = query.fetchLimit.map { _ in 0 }
        shaped.fetchOffset = query.fetchOffset.map { _ in 0 }
        self.query = shaped
        self.constants = constants
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.query == rhs.query }
    package func hash(into hasher: inout Hasher) { hasher.combine(query) }
}

extension QueryExpression {
    /// This expression with each constant replaced by `.integer(n)`, its position in `constants`
    /// (which it is appended to, left to right); nil when a constant is not one a store renders
    /// alike whatever its value.
    func numberingConstants(_ constants: inout [QueryValue], longestList: Int = .max) -> QueryExpression? {
        func number(_ value: QueryValue) -> QueryValue? {
            switch value {
            case .null, .identifier, .array: return nil
            case .double(let double) where double.isNaN: return nil
            case .bool, .integer, .double, .string, .date, .uuid, .data:
                constants.append(value)
                return .integer(Int64(constants.count - 1))
            }
        }
        func numbered(_ expression: QueryExpression) -> QueryExpression? { expression.numberingConstants(&constants, longestList: longestList) }
        switch self {
        case .value(let value):
            return number(value).map { .value($0) }
        case .property, .identifier, .variable, .elementProperty:
            return self
        case let .comparison(lhs, op, rhs, type):
            guard let lhs = numbered(lhs), let rhs = numbered(rhs) else { return nil }
            return .comparison(lhs, op, rhs, type: type)
        case let .and(lhs, rhs):
            guard let lhs = numbered(lhs), let rhs = numbered(rhs) else { return nil }
            return .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = numbered(lhs), let rhs = numbered(rhs) else { return nil }
            return .or(lhs, rhs)
        case .not(let operand):
            return numbered(operand).map { .not($0) }
        case let .isEntity(operand, entityName):
            return numbered(operand).map { .isEntity($0, entityName: entityName) }
        case let .conditional(test, then, otherwise):
            guard let test = numbered(test), let then = numbered(then), let otherwise = numbered(otherwise) else { return nil }
            return .conditional(test, then: then, else: otherwise)
        case let .arithmetic(lhs, op, rhs):
            guard let lhs = numbered(lhs), let rhs = numbered(rhs) else { return nil }
            return .arithmetic(lhs, op, rhs)
        case .negate(let operand):
            return numbered(operand).map { .negate($0) }
        case .forceUnwrap(let operand):
            return numbered(operand).map { .forceUnwrap($0) }
        case let .coalesce(operand, fallback):
            guard let operand = numbered(operand), let fallback = numbered(fallback) else { return nil }
            return .coalesce(operand, default: fallback)
        case let .stringContains(string, other, options):
            guard let string = numbered(string), let other = numbered(other) else { return nil }
            return .stringContains(string, other, options: options)
        case let .startsWith(string, prefix):
            guard let string = numbered(string), let prefix = numbered(prefix) else { return nil }
            return .startsWith(string, prefix: prefix)
        case let .stringCompare(string, other, options):
            guard let string = numbered(string), let other = numbered(other) else { return nil }
            return .stringCompare(string, other, options: options)
        case let .count(operand, kind):
            return numbered(operand).map { .count($0, of: kind) }
        case let .isEmpty(operand, kind):
            return numbered(operand).map { .isEmpty($0, of: kind) }
        case let .collectionContains(collection, element, type):
            guard let collection = numbered(collection), let element = numbered(element) else { return nil }
            return .collectionContains(collection, element: element, type: type)
        case let .in(element, list, type):
            guard list.count <= longestList, let element = numbered(element) else { return nil }
            var numberedList: [QueryValue] = []
            numberedList.reserveCapacity(list.count)
            for value in list {
                guard let position = number(value) else { return nil }
                numberedList.append(position)
            }
            return .in(element, numberedList, type: type)
        case let .collectionAny(collection, variable, test):
            guard let collection = numbered(collection), let test = numbered(test) else { return nil }
            return .collectionAny(collection, variable: variable, test: test)
        case let .collectionAll(collection, variable, test):
            guard let collection = numbered(collection), let test = numbered(test) else { return nil }
            return .collectionAll(collection, variable: variable, test: test)
        }
    }
}
