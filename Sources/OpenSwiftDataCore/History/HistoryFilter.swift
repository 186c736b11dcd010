import Foundation

/// What a store can run itself of a ``HistoryDescriptor`` predicate: the conditions on
/// transaction numbers (token comparisons), authors and changed entities among its top-level
/// `&&` terms. The rest is evaluated in Swift on the transactions those conditions select
/// (``isComplete`` false), so results are always the predicate's own.
package struct HistoryFilter: Sendable {
    package enum Comparison: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    package enum Condition: Sendable {
        /// The transaction number compared with a value (`$0.token > saved`, `$0.transactionIdentifier <= 7`).
        case transaction(Comparison, Int64)
        /// The author is (or, `equal` false, is not) the value; `nil` is a value like any other.
        case author(equal: Bool, String?)
        /// At least one change is of one of these entities.
        case changedEntity(in: Set<String>)
    }

    package private(set) var conditions: [Condition] = []
    /// Whether the conditions are the whole predicate.
    package private(set) var isComplete = true
    /// Every token the predicate holds, wherever it is: each must be of the store and not expired.
    package private(set) var tokens: [DefaultHistoryToken] = []

    /// A filter of these conditions, all of them the predicate, checking these tokens: one a client
    /// sent over the wire (``isComplete``).
    package init(conditions: [Condition], tokens: [DefaultHistoryToken]) {
        self.conditions = conditions
        self.tokens = tokens
    }

    package init(_ predicate: Predicate<DefaultHistoryTransaction>?) {
        guard let predicate else { return }
        collectTokens(in: predicate.expression)
        add(predicate.expression)
    }

    private mutating func add(_ term: Any) {
        if let conjunction = term as? any HistoryConjunctionNode {
            for part in conjunction.terms { add(part) }
        } else if let condition = (term as? any HistoryConditionNode)?.historyCondition {
            conditions.append(condition)
        } else {
            isComplete = false
        }
    }

    private mutating func collectTokens(in value: Any) {
        if let token = value as? DefaultHistoryToken { return tokens.append(token) }
        for child in Mirror(reflecting: value).children { collectTokens(in: child.value) }
    }

    /// The lowest transaction number the conditions admit; `Int64.min` when they set no lower bound.
    package var lowestTransaction: Int64 {
        conditions.reduce(Int64.min) { bound, condition in
            guard case .transaction(let comparison, let value) = condition else { return bound }
            switch comparison {
            case .greater: return max(bound, value == .max ? value : value + 1)
            case .greaterOrEqual, .equal: return max(bound, value)
            case .less, .lessOrEqual, .notEqual: return bound
            }
        }
    }

    /// Whether `record` meets every condition (the stores that keep records in memory).
    package func admits(_ record: HistoryRecord) -> Bool {
        conditions.allSatisfy { condition in
            switch condition {
            case .transaction(let comparison, let value): comparison.holds(record.transactionIdentifier, value)
            case .author(let equal, let author): (record.author == author) == equal
            case .changedEntity(let names): record.changes.contains { names.contains($0.identifier.entityName) }
            }
        }
    }
}

extension HistoryFilter.Comparison {
    package func holds(_ lhs: Int64, _ rhs: Int64) -> Bool {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }

    /// The comparison's SQL operator, the same in every SQL dialect the stores speak.
    package var sqlOperator: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    /// The comparison with its operands swapped (`5 < x` is `x > 5`).
    var flipped: Self {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    init(_ op: PredicateExpressions.ComparisonOperator) {
        switch op {
        case .lessThan: self = .less
        case .lessThanOrEqual: self = .lessOrEqual
        case .greaterThan: self = .greater
        case .greaterThanOrEqual: self = .greaterOrEqual
        }
    }
}

extension HistoryFilter {
    /// Refuses a token of another store, and one from before history the store deleted: the
    /// transactions after it are no longer all there. `deletedThrough` is the highest transaction
    /// number deleted so far (0 when none).
    package func checkTokens(storeIdentifier: String, deletedThrough: Int64) throws {
        for token in tokens {
            guard token.storeIdentifier == storeIdentifier else {
                throw PersistenceError(.foreignHistoryToken, "The history token is of the store \(token.storeIdentifier), not of \(storeIdentifier); compare transactions only with tokens this store's own transactions gave.")
            }
            if token.transactionIdentifier < deletedThrough { throw SwiftDataError.historyTokenExpired }
        }
    }
}

extension PersistenceError.Code {
    /// A history token was used with a store it does not belong to.
    public static let foreignHistoryToken = PersistenceError.Code(rawValue: "foreignHistoryToken")
}
