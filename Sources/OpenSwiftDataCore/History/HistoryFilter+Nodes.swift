import Foundation

// One conformance per predicate node the history filter reads. A node of any other shape makes
// its term run in Swift.

/// `a && b`: both terms are conditions of their own.
protocol HistoryConjunctionNode {
    var terms: [Any] { get }
}

/// A term that is one ``HistoryFilter/Condition``, when its operands have a shape the filter knows.
protocol HistoryConditionNode {
    var historyCondition: HistoryFilter.Condition? { get }
}

/// `$0.property` (or `$0.a.b`): the key path from the predicate's variable, and the variable's type.
protocol HistoryKeyPathNode {
    var rootType: Any.Type { get }
    var fullKeyPath: AnyKeyPath? { get }
}

/// A constant of the predicate.
protocol HistoryValueNode {
    var constant: Any { get }
}

extension PredicateExpressions.Conjunction: HistoryConjunctionNode {
    var terms: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.KeyPath: HistoryKeyPathNode {
    var rootType: Any.Type {
        (root as? any HistoryKeyPathNode)?.rootType ?? Root.Output.self
    }

    var fullKeyPath: AnyKeyPath? {
        if root is any HistoryVariableNode { return keyPath }
        return (root as? any HistoryKeyPathNode)?.fullKeyPath?.appending(path: keyPath)
    }
}

/// The predicate's variable (`$0`).
protocol HistoryVariableNode {}
extension PredicateExpressions.Variable: HistoryVariableNode {}

extension PredicateExpressions.Value: HistoryValueNode {
    var constant: Any { value }
}

/// A property and a constant, in either order, and whether they came swapped.
private func operands(_ lhs: Any, _ rhs: Any) -> (keyPath: AnyKeyPath, rootType: Any.Type, constant: Any, swapped: Bool)? {
    if let path = lhs as? any HistoryKeyPathNode, let keyPath = path.fullKeyPath, let value = rhs as? any HistoryValueNode {
        return (keyPath, path.rootType, value.constant, false)
    }
    if let path = rhs as? any HistoryKeyPathNode, let keyPath = path.fullKeyPath, let value = lhs as? any HistoryValueNode {
        return (keyPath, path.rootType, value.constant, true)
    }
    return nil
}

/// A transaction-number condition: the token or the transaction identifier against a constant.
private func transactionCondition(_ comparison: HistoryFilter.Comparison, _ lhs: Any, _ rhs: Any) -> HistoryFilter.Condition? {
    guard let (keyPath, rootType, constant, swapped) = operands(lhs, rhs), rootType == DefaultHistoryTransaction.self else { return nil }
    let number: Int64?
    switch keyPath {
    case \DefaultHistoryTransaction.token: number = (constant as? DefaultHistoryToken)?.transactionIdentifier
    case \DefaultHistoryTransaction.transactionIdentifier, \DefaultHistoryTransaction.id: number = constant as? Int64
    default: number = nil
    }
    return number.map { .transaction(swapped ? comparison.flipped : comparison, $0) }
}

/// `$0.author == value` or `!=`, for a constant `String?` or `String`.
private func authorCondition(equal: Bool, _ lhs: Any, _ rhs: Any) -> HistoryFilter.Condition? {
    guard let (keyPath, rootType, constant, _) = operands(lhs, rhs), rootType == DefaultHistoryTransaction.self,
          keyPath == \DefaultHistoryTransaction.author else { return nil }
    if let author = constant as? String? { return .author(equal: equal, author) }
    return nil
}

extension PredicateExpressions.Comparison: HistoryConditionNode {
    var historyCondition: HistoryFilter.Condition? {
        transactionCondition(HistoryFilter.Comparison(op), lhs, rhs)
    }
}

extension PredicateExpressions.Equal: HistoryConditionNode {
    var historyCondition: HistoryFilter.Condition? {
        transactionCondition(.equal, lhs, rhs) ?? authorCondition(equal: true, lhs, rhs)
    }
}

extension PredicateExpressions.NotEqual: HistoryConditionNode {
    var historyCondition: HistoryFilter.Condition? {
        transactionCondition(.notEqual, lhs, rhs) ?? authorCondition(equal: false, lhs, rhs)
    }
}

/// `$0.changes.contains { names.contains($0.changedPersistentIdentifier.entityName) }`, or with
/// `$0.changedPersistentIdentifier.entityName == "Trip"` inside.
extension PredicateExpressions.SequenceContainsWhere: HistoryConditionNode {
    var historyCondition: HistoryFilter.Condition? {
        guard let path = sequence as? any HistoryKeyPathNode, path.rootType == DefaultHistoryTransaction.self,
              path.fullKeyPath == \DefaultHistoryTransaction.changes,
              let names = (test as? any HistoryEntityTestNode)?.entityNames else { return nil }
        return .changedEntity(in: names)
    }
}

/// A test on one change that holds exactly for changes of some entities.
protocol HistoryEntityTestNode {
    var entityNames: Set<String>? { get }
}

/// Whether `node` is `change.changedPersistentIdentifier.entityName`.
private func isEntityName(_ node: Any) -> Bool {
    guard let path = node as? any HistoryKeyPathNode, path.rootType == HistoryChange.self else { return false }
    return path.fullKeyPath == \HistoryChange.changedPersistentIdentifier.entityName
}

extension PredicateExpressions.SequenceContains: HistoryEntityTestNode {
    var entityNames: Set<String>? {
        guard isEntityName(element), let constant = (sequence as? any HistoryValueNode)?.constant else { return nil }
        if let names = constant as? Set<String> { return names }
        if let names = constant as? [String] { return Set(names) }
        return nil
    }
}

extension PredicateExpressions.Equal: HistoryEntityTestNode {
    var entityNames: Set<String>? {
        if isEntityName(lhs), let name = (rhs as? any HistoryValueNode)?.constant as? String { return [name] }
        if isEntityName(rhs), let name = (lhs as? any HistoryValueNode)?.constant as? String { return [name] }
        return nil
    }
}
