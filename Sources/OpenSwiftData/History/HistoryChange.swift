/// One model's change in a transaction. Match the change's concrete type to learn the model's:
///
/// ```swift
/// switch change {
/// case .insert(let insert as DefaultHistoryInsert<Trip>): added(insert.changedPersistentIdentifier)
/// case .update(let update as DefaultHistoryUpdate<Trip>): changed(update.updatedAttributes)
/// case .delete(let delete as DefaultHistoryDelete<Trip>): removed(delete.tombstone[\.name])
/// default: break
/// }
/// ```
public enum HistoryChange: Sendable {
    case insert(any HistoryInsert)
    case update(any HistoryUpdate)
    case delete(any HistoryDelete)

    /// The identifier of the changed model.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}

/// A model inserted by a transaction.
public protocol HistoryInsert<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
}

/// A model updated by a transaction, with the properties that changed.
public protocol HistoryUpdate<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A model deleted by a transaction, with the values it kept (its tombstone).
public protocol HistoryDelete<Model>: Sendable {
    associatedtype Model: PersistentModel
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    var changeIdentifier: ChangeIdentifier { get }
    var transactionIdentifier: TransactionIdentifier { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var tombstone: HistoryTombstone<Model> { get }
}
