/// An open-addressed table keyed by object identity (key path objects, metatypes), probing
/// linearly from the pointer's own bits: a property read looks its key path up here, and
/// `Dictionary`'s seeded hash of the identifier (plus a retain and release of the entry) was most
/// of the lookup's work. Not thread-safe: its caches hold it in a `Mutex`.
struct PointerTable<Value>: @unchecked Sendable {
    /// Identities by bucket; 0 is an empty bucket (no object lives at address 0).
    private var keys: [UInt]
    private var values: [Value?]
    /// The objects whose identities are the keys, kept alive so that no address is reused
    /// (metatypes, which live for the whole process, need no keeping).
    private var owners: [AnyObject] = []
    private var mask: Int
    private(set) var count = 0

    /// Starts small and doubles, at most a quarter full so that most lookups find their key in the
    /// first bucket (at half full, probing made every property read dearer): a
    /// cache's limit is a bound, not what it usually holds.
    init() {
        keys = Array(repeating: 0, count: 8)
        values = Array(repeating: nil, count: 8)
        mask = 7
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

    mutating func insert(_ value: Value, for identity: ObjectIdentifier, keeping owner: AnyObject?) {
        let key = UInt(bitPattern: identity)
        guard place(key, value) else { return }
        count += 1
        if let owner { owners.append(owner) }
        if count * 4 > keys.count { grow() }
    }

    /// Puts `value` in `key`'s bucket; false when the key is already there. An empty bucket is
    /// always left, since the table is at most a quarter full.
    private mutating func place(_ key: UInt, _ value: Value?) -> Bool {
        var bucket = Self.start(key, mask)
        while keys[bucket] != 0 {
            if keys[bucket] == key { return false }
            bucket = (bucket + 1) & mask
        }
        keys[bucket] = key
        values[bucket] = value
        return true
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        mask = keys.count - 1
        for index in oldKeys.indices where oldKeys[index] != 0 {
            _ = place(oldKeys[index], oldValues[index])
        }
    }

    /// Objects are 16-byte aligned, so the low four bits carry nothing; the multiply spreads the
    /// rest over the table.
    private static func start(_ key: UInt, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: ((key >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
