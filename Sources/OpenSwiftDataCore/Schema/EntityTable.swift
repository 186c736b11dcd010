/// Values by entity name, for the lookups every fetch and save makes: its store, its table layout
/// and its identifier scope. A schema has a handful of entities and a short name is compared as
/// two words, so comparing the names in turn is cheaper than hashing one (every byte through
/// SipHash), and a lookup by key asks three times. Past ``scannedCount`` names it hashes.
package struct EntityTable<Value> {
    /// In the order given; a name given twice keeps its first value.
    package private(set) var names: [String] = []
    package private(set) var values: [Value] = []
    private var byName: [String: Value] = [:]

    static var scannedCount: Int { 16 }

    package init(_ pairs: some Sequence<(String, Value)>) {
        for (name, value) in pairs where byName[name] == nil {
            byName[name] = value
            names.append(name)
            values.append(value)
        }
    }

    package subscript(name: String) -> Value? {
        guard names.count <= Self.scannedCount else { return byName[name] }
        for index in names.indices where names[index] == name { return values[index] }
        return nil
    }
}

extension EntityTable: Sendable where Value: Sendable {}
