/// A context's registered models by identifier: one instance per identifier.
///
/// One dictionary per identifier scope (entity × store), keyed by the store's key alone, since the
/// scope is the same for all of its entries: an entry is 24 bytes where a whole identifier as the
/// key made it 48, and hashing an `Int64` is cheaper than hashing an identifier. (A 100,000-model
/// context kept 12.6 MB of map; its dictionary is at a quarter of its capacity just past 98,304
/// entries, where it doubles.)
struct IdentityMap: Sequence {
    fileprivate struct Table {
        let scope: IdentifierScope
        var integers: [Int64: any PersistentModel] = [:]
        var strings: [String: any PersistentModel] = [:]
    }

    private var tables: [ObjectIdentifier: Table] = [:]
    private(set) var count = 0

    init() {}

    /// An empty map with room for as many models per scope as `other` holds.
    init(reservingLike other: IdentityMap) {
        for (key, table) in other.tables {
            var reserved = Table(scope: table.scope)
            reserved.integers.reserveCapacity(table.integers.count)
            reserved.strings.reserveCapacity(table.strings.count)
            tables[key] = reserved
        }
    }

    var isEmpty: Bool { count == 0 }

    subscript(identifier: PersistentIdentifier) -> (any PersistentModel)? {
        get {
            guard let table = tables[ObjectIdentifier(identifier.scope)] else { return nil }
            switch identifier.primaryKey {
            case .integer(let key): return table.integers[key]
            case .string(let key): return table.strings[key]
            }
        }
        set {
            if let newValue { updateValue(newValue, forKey: identifier) } else { removeValue(forKey: identifier) }
        }
    }

    @discardableResult
    mutating func updateValue(_ model: any PersistentModel, forKey identifier: PersistentIdentifier) -> (any PersistentModel)? {
        let scope = identifier.scope
        let old: (any PersistentModel)?
        switch identifier.primaryKey {
        case .integer(let key): old = tables[ObjectIdentifier(scope), default: Table(scope: scope)].integers.updateValue(model, forKey: key)
        case .string(let key): old = tables[ObjectIdentifier(scope), default: Table(scope: scope)].strings.updateValue(model, forKey: key)
        }
        if old == nil { count += 1 }
        return old
    }

    @discardableResult
    mutating func removeValue(forKey identifier: PersistentIdentifier) -> (any PersistentModel)? {
        let scope = ObjectIdentifier(identifier.scope)
        let old: (any PersistentModel)??
        switch identifier.primaryKey {
        case .integer(let key): old = tables[scope]?.integers.removeValue(forKey: key)
        case .string(let key): old = tables[scope]?.strings.removeValue(forKey: key)
        }
        guard let old = old ?? nil else { return nil }
        count -= 1
        return old
    }

    /// Room for `count` models of one scope, grown once rather than by doubling.
    mutating func reserveCapacity(_ count: Int, in scope: IdentifierScope) {
        tables[ObjectIdentifier(scope), default: Table(scope: scope)].integers.reserveCapacity(count)
    }

    func makeIterator() -> Iterator { Iterator(tables: tables.values.makeIterator()) }

    /// Every registered model with its identifier, in no particular order.
    struct Iterator: IteratorProtocol {
        fileprivate var tables: Dictionary<ObjectIdentifier, Table>.Values.Iterator
        private var scope: IdentifierScope?
        private var integers: Dictionary<Int64, any PersistentModel>.Iterator?
        private var strings: Dictionary<String, any PersistentModel>.Iterator?

        fileprivate init(tables: Dictionary<ObjectIdentifier, Table>.Values.Iterator) {
            self.tables = tables
        }

        mutating func next() -> (identifier: PersistentIdentifier, model: any PersistentModel)? {
            while true {
                if let scope {
                    if let (key, model) = integers?.next() {
                        return (PersistentIdentifier(scope: scope, primaryKey: .integer(key)), model)
                    }
                    if let (key, model) = strings?.next() {
                        return (PersistentIdentifier(scope: scope, primaryKey: .string(key)), model)
                    }
                }
                guard let table = tables.next() else { return nil }
                scope = table.scope
                integers = table.integers.makeIterator()
                strings = table.strings.makeIterator()
            }
        }
    }
}
