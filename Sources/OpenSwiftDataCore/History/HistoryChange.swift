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
    /// A model was inserted.
    case insert(any HistoryInsert)
    /// Some of a model's properties were changed.
    case update(any HistoryUpdate)
    /// A model was deleted.
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
    /// The type of the changed model.
    associatedtype Model: PersistentModel
    /// The type that numbers transactions.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type that numbers changes.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// Identifies this change among the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The transaction that made this change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the model that changed.
    var changedPersistentIdentifier: PersistentIdentifier { get }
}

/// A model updated by a transaction, with the properties that changed.
public protocol HistoryUpdate<Model>: Sendable {
    /// The type of the changed model.
    associatedtype Model: PersistentModel
    /// The type that numbers transactions.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type that numbers changes.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// A key path to one of the model's persisted properties.
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// Identifies this change among the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The transaction that made this change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the model that changed.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The key paths of the persisted properties the save changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A model deleted by a transaction, with the values it kept (its tombstone).
public protocol HistoryDelete<Model>: Sendable {
    /// The type of the changed model.
    associatedtype Model: PersistentModel
    /// The type that numbers transactions.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type that numbers changes.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// Identifies this change among the store's changes.
    var changeIdentifier: ChangeIdentifier { get }
    /// The transaction that made this change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the model that changed.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The values the deleted model kept: its `.preserveValueOnDeletion` attributes.
    var tombstone: HistoryTombstone<Model> { get }
}
