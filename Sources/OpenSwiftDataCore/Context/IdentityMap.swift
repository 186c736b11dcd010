/// A context's registered models by identifier: one instance per identifier.
///
/// One dictionary per identifier scope (entity × store), keyed by the store's key alone, since the
/// scope is the same for all of its entries: an entry is 24 bytes where a whole identifier as the
/// key made it 48, and hashing an `Int64` is cheaper than hashing an identifier. A class, as its
/// tables are: a context's map is only ever replaced whole, and nested dictionaries inside a
/// dictionary's values are moved out and back on every write.
final class IdentityMap: Sequence {
    fileprivate final class Table {
        let scope: IdentifierScope
        var integers: [Int64: any PersistentModel] = [:]
        var strings: [String: any PersistentModel] = [:]

        init(scope: IdentifierScope) { self.scope = scope }
    }

    private var tables: [ObjectIdentifier: Table] = [:]
    /// The table used last: a context registers, looks up and drops models of one entity in runs.
    private var last: Table?
    private(set) var count = 0

    init() {}

    /// An empty map with room for as many models per scope as `other` holds.
    init(reservingLike other: IdentityMap) {
        for (key, table) in other.tables {
            let reserved = Table(scope: table.scope)
            reserved.integers.reserveCapacity(table.integers.count)
            reserved.strings.reserveCapacity(table.strings.count)
            tables[key] = reserved
        }
    }

    var isEmpty: Bool { count == 0 }

    private func table(for scope: IdentifierScope) -> Table? {
        if let last, last.scope === scope { return last }
        guard let table = tables[ObjectIdentifier(scope)] else { return nil }
        last = table
        return table
    }

    private func makeTable(for scope: IdentifierScope) -> Table {
        if let table = table(for: scope) { return table }
        let table = Table(scope: scope)
        tables[ObjectIdentifier(scope)] = table
        last = table
        return table
    }

    subscript(identifier: PersistentIdentifier) -> (any PersistentModel)? {
        get {
            guard let table = table(for: identifier.scope) else { return nil }
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
    func updateValue(_ model: any PersistentModel, forKey identifier: PersistentIdentifier) -> (any PersistentModel)? {
        let table = makeTable(for: identifier.scope)
        let old: (any PersistentModel)?
        switch identifier.primaryKey {
        case .integer(let key): old = table.integers.updateValue(model, forKey: key)
        case .string(let key): old = table.strings.updateValue(model, forKey: key)
        }
        if old == nil { count += 1 }
        return old
    }

    @discardableResult
    func removeValue(forKey identifier: PersistentIdentifier) -> (any PersistentModel)? {
        guard let table = table(for: identifier.scope) else { return nil }
        let old: (any PersistentModel)?
        switch identifier.primaryKey {
        case .integer(let key): old = table.integers.removeValue(forKey: key)
        case .string(let key): old = table.strings.removeValue(forKey: key)
        }
        if old != nil { count -= 1 }
        return old
    }

    /// The tables (by scope) whose models `matches` accepts, judged by one model each: a table
    /// holds one entity's models, so a test of type answers for all of them.
    func scopes(where matches: (any PersistentModel) -> Bool) -> [ObjectIdentifier] {
        var scopes: [ObjectIdentifier] = []
        for (key, table) in tables {
            guard let first = table.integers.first?.value ?? table.strings.first?.value, matches(first) else { continue }
            scopes.append(key)
        }
        return scopes
    }

    /// Every model of these tables.
    func models(inScopes scopes: [ObjectIdentifier]) -> [any PersistentModel] {
        var models: [any PersistentModel] = []
        for key in scopes {
            guard let table = tables[key] else { continue }
            models.reserveCapacity(models.count + table.integers.count + table.strings.count)
            models.append(contentsOf: table.integers.values)
            models.append(contentsOf: table.strings.values)
        }
        return models
    }

    /// Drops these tables whole: a model at a time would hash its key and move its dictionary's
    /// entries.
    func removeScopes(_ scopes: [ObjectIdentifier]) {
        for key in scopes {
            guard let table = tables.removeValue(forKey: key) else { continue }
            count -= table.integers.count + table.strings.count
            if last === table { last = nil }
        }
    }

    /// Room for `count` models of one scope, grown once rather than by doubling.
    func reserveCapacity(_ count: Int, in scope: IdentifierScope) {
        makeTable(for: scope).integers.reserveCapacity(count)
    }

    /// Every registered model of an entity with relationships lets go of its related models
    /// (``BackingStorage/releaseRelationships()``); entities without any are not visited.
    func releaseRelationships() {
        for table in tables.values {
            guard let first = table.integers.first?.value ?? table.strings.first?.value,
                  first.backingStorage?.info.relationshipSlots.isEmpty == false else { continue }
            for model in table.integers.values { model.backingStorage?.releaseRelationships() }
            for model in table.strings.values { model.backingStorage?.releaseRelationships() }
        }
    }

    func makeIterator() -> Iterator { Iterator(tables: Array(tables.values)) }

    /// Every registered model with its identifier, in no particular order.
    struct Iterator: IteratorProtocol {
        private let tables: [Table]
        private var position = 0
        private var integers: Dictionary<Int64, any PersistentModel>.Iterator?
        private var strings: Dictionary<String, any PersistentModel>.Iterator?

        fileprivate init(tables: [Table]) {
            self.tables = tables
        }

        mutating func next() -> (identifier: PersistentIdentifier, model: any PersistentModel)? {
            while true {
                if position > 0 {
                    let scope = tables[position - 1].scope
                    if let (key, model) = integers?.next() {
                        return (PersistentIdentifier(scope: scope, primaryKey: .integer(key)), model)
                    }
                    if let (key, model) = strings?.next() {
                        return (PersistentIdentifier(scope: scope, primaryKey: .string(key)), model)
                    }
                }
                guard position < tables.count else { return nil }
                integers = tables[position].integers.makeIterator()
                strings = tables[position].strings.makeIterator()
                position += 1
            }
        }
    }
}
