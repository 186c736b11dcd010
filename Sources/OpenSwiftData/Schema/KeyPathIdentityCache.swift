import Synchronization

/// What was worked out for a key path, by the key path object's identity. A key path literal is one
/// object per place in the code (the runtime instantiates it once), so most lookups hash a pointer
/// instead of the key path's components (about 1,000 instructions each).
///
/// Each entry keeps its key path alive, so an identity is never reused while cached; `limit`
/// bounds the cache when key paths are built afresh each time (generic contexts).
final class KeyPathIdentityCache<Value>: @unchecked Sendable {
    // Unchecked: entries are only read and written under the mutex, and key paths are immutable.
    private struct Entry: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let value: Value
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The cached value for `keyPath`, or `compute`'s, kept while there is room.
    func value(for keyPath: AnyKeyPath, _ compute: (AnyKeyPath) -> Value) -> Value {
        let identity = ObjectIdentifier(keyPath)
        if let entry = entries.withLock({ $0[identity] }) { return entry.value }
        let value = compute(keyPath)
        entries.withLock { entries in
            if entries.count < limit { entries[identity] = Entry(keyPath: keyPath, value: value) }
        }
        return value
    }
}
