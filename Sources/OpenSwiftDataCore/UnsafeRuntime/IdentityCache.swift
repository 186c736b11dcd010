import Synchronization

/// What was worked out for an object by its identity: a key path (a key path literal is one object
/// per place in the code, which the runtime instantiates once) or a type (its metadata). Most
/// lookups compare a pointer instead of hashing a key path's components or an `ObjectIdentifier`
/// with `Dictionary`'s seeded hash.
///
/// Each key path entry keeps its key path alive, so an identity is never reused while cached
/// (types live for the whole process); `limit` bounds the cache when key paths are built afresh
/// each time (generic contexts) or a program has more types than it holds. Without shortcuts
/// (``UnsafeRuntime``) every lookup computes afresh.
package final class IdentityCache<Value>: @unchecked Sendable {
    // Unchecked: the table is only read and written under the mutex; key paths and types are
    // immutable.
    private let table: Mutex<PointerTable<Value>>
    private let limit: Int

    package init(limit: Int) {
        self.limit = limit
        table = Mutex(PointerTable())
    }

    /// The cached value for `keyPath`, or `compute`'s, kept while there is room.
    package func value(for keyPath: AnyKeyPath, _ compute: (AnyKeyPath) -> Value) -> Value {
        guard UnsafeRuntime.shortcutsEnabled else { return compute(keyPath) }
        let identity = ObjectIdentifier(keyPath)
        if let value = cached(identity) { return value }
        return remembered(compute(keyPath), for: identity, keeping: keyPath)
    }

    /// The cached value for `type`, or `compute`'s, kept while there is room.
    func value(for type: Any.Type, _ compute: (Any.Type) -> Value) -> Value {
        guard UnsafeRuntime.shortcutsEnabled else { return compute(type) }
        let identity = ObjectIdentifier(type)
        if let value = cached(identity) { return value }
        return remembered(compute(type), for: identity, keeping: nil)
    }

    /// The hit path touches only the identity: passing the key path along as the entry's owner
    /// retained and released it on every lookup, and every property read makes one.
    private func cached(_ identity: ObjectIdentifier) -> Value? {
        table.withLock { $0.value(for: identity) }
    }

    private func remembered(_ value: Value, for identity: ObjectIdentifier, keeping owner: AnyObject?) -> Value {
        table.withLock { table in
            if table.count < limit { table.insert(value, for: identity, keeping: owner) }
        }
        return value
    }
}
