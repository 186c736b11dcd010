import Foundation

/// The non-generic core of every backing data this library creates: one value slot per persisted
/// property, the last committed values (for rollback), and the context the model is registered in.
///
/// The fields every property read, fetch and save touches are `@exclusivity(unchecked)`: a class's
/// stored property is otherwise checked at run time on each access (`swift_beginAccess`, twice
/// per property read). None of them is ever accessed inout across a call that
/// could reach the same storage, and a backing data is used by one thread at a time (its
/// context's), so the checks could never fire.
package class BackingStorage {
    package enum State { case detached, registered, deleted }

    /// Relationship values loaded from a snapshot stay identifiers until first read, or, for a
    /// to-many the store left to be read on demand (``DataStoreDeferredToMany``), a reference to them.
    /// Three words, so that an `Any` holds it without a box.
    package struct UnresolvedRelationship {
        private let known: [PersistentIdentifier]?
        private let deferred: DataStoreDeferredToMany?
        private let owner: Int64

        package init(identifiers: [PersistentIdentifier]?) {
            known = identifiers
            deferred = nil
            owner = 0
        }

        package init(_ reference: DataStoreDeferredToMany.Reference) {
            known = nil
            deferred = reference.group
            owner = reference.owner
        }

        /// The related models' identifiers; nil for a relationship read as nothing (nil, or empty).
        package var identifiers: [PersistentIdentifier]? {
            guard let deferred else { return known }
            return deferred.identifiers(of: owner)
        }

        /// `stored` when it is one, by comparing types (relationship reads ask per related model).
        package static func of(_ stored: Any?) -> UnresolvedRelationship? {
            guard let stored, holdsExactly(stored, UnresolvedRelationship.self) else { return nil }
            return takeExactly(stored, as: UnresolvedRelationship.self)
        }
    }

    package let info: ModelTypeInfo
    @exclusivity(unchecked) package var values: [Any?]
    /// The values as of the last fetch or save; `nil` for a model that was never saved.
    @exclusivity(unchecked) package var committed: [Any?]?
    @exclusivity(unchecked) package weak var context: ModelContext?
    /// The model this storage backs, set when it is inserted, registered or first relates to
    /// another. Unowned, not weak: the model owns this storage, so it outlives every use of it by
    /// the model or by a context (whose identity map and pending sets hold their models), and a
    /// weak reference gives every model a side table, one more allocation per model.
    @exclusivity(unchecked) package unowned var model: (any PersistentModel)?
    @exclusivity(unchecked) package var state: State = .detached
    /// Set by `ModelContext.model(for:)` for an identifier whose values were not loaded yet.
    @exclusivity(unchecked) package var isFault = false
    /// Set while a context's `init(backingData:)` runs on this backing data (``BackingAdoption``):
    /// the property defaults the initializer writes are dropped, since the loaded values replace
    /// them (or, for a model not loaded yet, reading an unset property yields its default anyway).
    @exclusivity(unchecked) package var isInitializing = false
    /// This storage's position in each of its context's pending sets, by ``PendingSet/Kind``
    /// (-1: none). Inline, so that pending sets are arrays rather than dictionaries.
    @exclusivity(unchecked) var pendingPositions = PendingSet.Positions()
    /// Set when a relationship was assigned before the model was known, so its inverse waits for
    /// ``linkInverses()``.
    var hasUnlinkedInverses = false
    /// The to-many slots modified in place since their inverses were last compared in full
    /// (``beginInPlaceModification(at:)``).
    @exclusivity(unchecked) var pendingToMany: [Int: PendingToMany] = [:]
    /// The slots set since the values were last loaded or saved, one bit each (``markChanged(_:)``),
    /// so that a save writes only the columns that changed.
    @exclusivity(unchecked) package private(set) var changedSlots = ChangedSlots()
    @exclusivity(unchecked) private var identifier: PersistentIdentifier?

    /// Required, so that ``ModelTypeInfo/makeBacking(as:)`` makes a `ModelBackingData` of the model's
    /// type through the class object (see there).
    required init(info: ModelTypeInfo) {
        self.info = info
        values = info.unsetValues
    }

    package var persistentModelIdentifier: PersistentIdentifier {
        if let identifier { return identifier }
        let temporary = PersistentIdentifier.temporary(in: info.temporaryScope)
        identifier = temporary
        return temporary
    }

    package func setIdentifier(_ newValue: PersistentIdentifier?) { identifier = newValue }

    /// This storage as the protocol the store API speaks. ``ModelBackingData`` answers itself,
    /// without the conformance lookup of `as! any BackingData`, which every saved model would pay.
    package var asBackingData: any BackingData { self as! any BackingData }
    package var hasIdentifier: Bool { identifier != nil }

    /// Whether every slot holds a value. Read in place when ``AnyOptionalLayout`` holds: a pattern
    /// match or `== nil` on `values[index]` copies each value out of its existential and destroys
    /// the copy, for every slot of every saved model.
    var hasEveryValue: Bool {
        guard AnyOptionalLayout.typeWordMarksNil else {
            for index in values.indices {
                if case .none = values[index] { return false }
            }
            return true
        }
        return !AnyOptionalLayout.holdsNil(values)
    }

    /// The value in a slot, faulting it in first if needed; unset optionals read as `nil`, unset
    /// properties with a declared default read as that default.
    package func value(at slot: Int) -> Any? {
        if isFault, let context { context.fulfillFault(self) }
        if let value = values[slot] { return value }
        let property = info.properties[slot]
        if let defaultValue = property.defaultValue { return defaultValue }
        if let optional = property.valueType as? any AnyOptional.Type { return optional.nilValue }
        return nil
    }

    /// The value in a slot, which must have one (see ``value(at:)``).
    package func presentValue(at slot: Int) -> Any {
        guard let value = value(at: slot) else { missingValue(slot) }
        return value
    }

    package func setValue(_ newValue: Any, at slot: Int) {
        guard let context else {
            // Not registered (being initialised, or detached): nothing tracks changes, so the
            // comparison below would be wasted.
            values[slot] = newValue
            return
        }
        if isFault { context.fulfillFault(self) }
        if let old = values[slot], valuesEqual(old, newValue) { return }
        values[slot] = newValue
        changedSlots.insert(slot)
        context.backingDidChange(self, slot: slot)
    }

    /// Replaces every value with a freshly fetched or saved state.
    package func load(_ newValues: [Any?]) {
        values = newValues
        committed = newValues
        isFault = false
        changedSlots = ChangedSlots()
        if !pendingToMany.isEmpty { pendingToMany = [:] }
    }

    package func markCommitted() {
        committed = values
        changedSlots = ChangedSlots()
        if !pendingToMany.isEmpty { pendingToMany = [:] }
    }

    package func restoreCommitted() {
        if let committed { values = committed }
        changedSlots = ChangedSlots()
        if !pendingToMany.isEmpty { pendingToMany = [:] }
    }

    /// Records a change made to `slot` in place (an append to a to-many).
    func markChanged(_ slot: Int) { changedSlots.insert(slot) }

    package func missingValue(_ slot: Int) -> Never {
        let property = info.properties[slot]
        let reason = isFault
            ? "its data could not be loaded (the model was deleted from the store, or the store failed)"
            : "it was never set"
        preconditionFailure("\(info.entityName).\(property.name) has no value: \(reason).")
    }
}

/// Values are compared so that setting a property to the value it already has is not a change.
private func valuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    if let equal = InlineAttributes.equal(lhs, rhs) { return equal }
    // The common types by exact cast: the general path below boxes value types as objects and
    // looks up `Equatable` conformances, on every property set.
    switch (lhs, rhs) {
    case let (lhs as String, rhs as String): return lhs == rhs
    case let (lhs as Int, rhs as Int): return lhs == rhs
    case let (lhs as Double, rhs as Double): return lhs == rhs
    case let (lhs as Bool, rhs as Bool): return lhs == rhs
    case let (lhs as UUID, rhs as UUID): return lhs == rhs
    case let (lhs as Date, rhs as Date): return lhs == rhs
    // Unset optionals hold nil of their type, which the casts above do not match.
    case let (lhs as String?, rhs as String?): return lhs == rhs
    case let (lhs as Int?, rhs as Int?): return lhs == rhs
    case let (lhs as Double?, rhs as Double?): return lhs == rhs
    default: break
    }
    // Models compare by identity. Asked as `as? AnyObject` (or `as? any PersistentModel`),
    // Foundation bridged every array of models to an NSArray of boxed elements on each
    // relationship write.
    if let lhsModel = unwrapOptional(lhs).flatMap(modelValue) {
        guard let rhsModel = unwrapOptional(rhs).flatMap(modelValue) else { return false }
        return lhsModel === rhsModel
    }
    guard let lhs = lhs as? any Equatable else { return false }
    return lhs.isEqual(to: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
