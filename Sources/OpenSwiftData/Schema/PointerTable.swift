/// An open-addressed table keyed by object identity (key path objects, metatypes), probing
/// linearly from the pointer's own bits: a property read looks its key path up here, and
/// `Dictionary`'s seeded hash of the identifier (plus a retain and release of the entry) was most
/// of the lookup's 240 instructions. Not thread-safe: its caches hold it in a `Mutex`.
struct PointerTable<Value>: @unchecked Sendable {
    /// Identities by bucket; 0 is an empty bucket (no object lives at address 0).
    private var keys: [UInt]
    private var values: [Value?]
    /// The objects whose identities are the keys, kept alive so that no address is reused
    /// (metatypes, which live for the whole process, need no keeping).
    private var owners: [AnyObject] = []
    private let mask: Int
    private(set) var count = 0

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
    mutating func insert(_ value: Value, for identity: ObjectIdentifier, keeping owner: AnyObject?) {
        let key = UInt(bitPattern: identity)
        var bucket = Self.start(key, mask)
        while keys[bucket] != 0 {
            if keys[bucket] == key { return }
            bucket = (bucket + 1) & mask
        }
        keys[bucket] = key
        values[bucket] = value
        count += 1
        if let owner { owners.append(owner) }
    }

    /// Objects are 16-byte aligned, so the low four bits carry nothing; the multiply spreads the
    /// rest over the table.
    private static func start(_ key: UInt, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: ((key >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
