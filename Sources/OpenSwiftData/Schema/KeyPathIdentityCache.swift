import Synchronization

/// What was worked out for a key path, by the key path object's identity. A key path literal is one
/// object per place in the code (the runtime instantiates it once), so most lookups compare a
/// pointer instead of hashing the key path's components (about 1,000 instructions each).
///
/// Each entry keeps its key path alive, so an identity is never reused while cached; `limit`
/// bounds the cache when key paths are built afresh each time (generic contexts).
final class KeyPathIdentityCache<Value>: @unchecked Sendable {
    // Unchecked: the table is only read and written under the mutex, and key paths are immutable.
    private let table: Mutex<PointerTable<Value>>
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
        table = Mutex(PointerTable(capacity: limit))
    }

    /// The cached value for `keyPath`, or `compute`'s, kept while there is room.
    func value(for keyPath: AnyKeyPath, _ compute: (AnyKeyPath) -> Value) -> Value {
        let identity = ObjectIdentifier(keyPath)
        if let value = table.withLock({ $0.value(for: identity) }) { return value }
        let value = compute(keyPath)
        table.withLock { table in
            if table.count < limit { table.insert(value, for: keyPath) }
        }
        return value
    }
}

/// An open-addressed table keyed by object identity, probing linearly from the pointer's own bits:
/// a property read looks its key path up here, and `Dictionary`'s seeded hash of the identifier
/// (plus a retain and release of the entry) was most of the lookup's 240 instructions.
private struct PointerTable<Value>: @unchecked Sendable {
    /// Identities by bucket; 0 is an empty bucket (no object lives at address 0).
    private var keys: [UInt]
    private var values: [Value?]
    /// The objects whose identities are the keys, kept alive so that no address is reused.
    private var owners: [AnyObject] = []
    private let mask: Int

    var count: Int { owners.count }

    /// Room for `capacity` entries at most half full, so that probes stay short.
    init(capacity: Int) {
        var buckets = 8
        while buckets < capacity * 2 { buckets *= 2 }
        keys = Array(repeating: 0, count: buckets)
        values = Array(repeating: nil, count: buckets)
        mask = buckets - 1
    }

    func value(for identity: ObjectIdentifier) -> Value? {
        let key = UInt(bitPattern: identity)
        var bucket = Self.start(key, mask)
        while true {
            let found = keys[bucket]
            if found == key { return values[bucket] }
            if found == 0 { return nil }
            bucket = (bucket + 1) & mask
        }
    }

    /// The caller keeps `count` below the capacity it asked for, so an empty bucket is always left.
    mutating func insert(_ value: Value, for owner: AnyObject) {
        let key = UInt(bitPattern: ObjectIdentifier(owner))
        var bucket = Self.start(key, mask)
        while keys[bucket] != 0 {
            if keys[bucket] == key { return }
            bucket = (bucket + 1) & mask
        }
        keys[bucket] = key
        values[bucket] = value
        owners.append(owner)
    }

    /// Objects are 16-byte aligned, so the low four bits carry nothing; the multiply spreads the
    /// rest over the table.
    private static func start(_ key: UInt, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: ((key >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
