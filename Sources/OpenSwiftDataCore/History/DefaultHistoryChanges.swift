/// A model of type `Model` inserted by a ``DefaultHistoryTransaction``.
public struct DefaultHistoryInsert<Model>: HistoryInsert where Model: PersistentModel {
    /// Transactions are numbered with 64-bit integers.
    public typealias TransactionIdentifier = Int64
    /// Changes are numbered with 64-bit integers.
    public typealias ChangeIdentifier = Int64
    /// Numbers this change among all changes of the store, in save order.
    public let changeIdentifier: Int64
    /// The number of the transaction that made this change.
    public let transactionIdentifier: Int64
    /// The identifier of the model that changed.
    public let changedPersistentIdentifier: PersistentIdentifier
}

/// A model of type `Model` updated by a ``DefaultHistoryTransaction``.
public struct DefaultHistoryUpdate<Model>: HistoryUpdate where Model: PersistentModel {
    /// Transactions are numbered with 64-bit integers.
    public typealias TransactionIdentifier = Int64
    /// Changes are numbered with 64-bit integers.
    public typealias ChangeIdentifier = Int64
    /// A key path to one of the model's persisted properties.
    public typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// Numbers this change among all changes of the store, in save order.
    public let changeIdentifier: Int64
    /// The number of the transaction that made this change.
    public let transactionIdentifier: Int64
    /// The identifier of the model that changed.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The key paths of the persisted properties the save changed (attributes and relationships),
    /// in the order the model declares them.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]
}

/// A model of type `Model` deleted by a ``DefaultHistoryTransaction``.
public struct DefaultHistoryDelete<Model>: HistoryDelete where Model: PersistentModel {
    /// Transactions are numbered with 64-bit integers.
    public typealias TransactionIdentifier = Int64
    /// Changes are numbered with 64-bit integers.
    public typealias ChangeIdentifier = Int64
    /// Numbers this change among all changes of the store, in save order.
    public let changeIdentifier: Int64
    /// The number of the transaction that made this change.
    public let transactionIdentifier: Int64
    /// The identifier of the model that changed.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The values of its `.preserveValueOnDeletion` attributes.
    public let tombstone: HistoryTombstone<Model>
}

/// The three change types are one change of one model each: equal when their change number and
/// model are.
package protocol NumberedHistoryChange: Hashable {
    var changeIdentifier: Int64 { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
}

extension NumberedHistoryChange {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
    }
}

extension DefaultHistoryInsert: NumberedHistoryChange {}
extension DefaultHistoryUpdate: NumberedHistoryChange {}
extension DefaultHistoryDelete: NumberedHistoryChange {}
