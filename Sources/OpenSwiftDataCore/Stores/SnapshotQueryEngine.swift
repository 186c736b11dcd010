import Foundation

/// Runs a ``DataStoreQuery`` over `DefaultSnapshot`s without building models: filter with
/// ``QueryEvaluator``, stable sort with its `compare`, then offset and limit. Shared by the stores
/// that keep snapshots (in memory, JSON files).
package struct SnapshotQueryEngine {
    /// Looks up the snapshot a relationship refers to, for paths like `trip.name`.
    let related: (PersistentIdentifier) -> DefaultSnapshot?

    package init(related: @escaping (PersistentIdentifier) -> DefaultSnapshot?) {
        self.related = related
    }

    /// The rows matching the query, in its order. An expression Swift would throw on (a failed
    /// force unwrap) sends the filter back to the context, which evaluates it with Swift's semantics.
    package func run(_ query: DataStoreQuery, over rows: [DefaultSnapshot]) throws -> [DefaultSnapshot] {
        let cursor = RowCursor(engine: self, entityName: query.entityName)
        var result: [DefaultSnapshot]
        if let filter = query.filter {
            do {
                result = try self.filter(rows, by: filter, cursor: cursor)
            } catch is QueryEvaluationError {
                throw DataStoreError.preferInMemoryFilter
            }
        } else {
            result = rows
        }
        if !query.sortBy.isEmpty { result = try sort(result, by: query.sortBy, cursor: cursor) }
        guard query.fetchOffset != nil || query.fetchLimit != nil else { return result }
        return Array(result.dropFirst(query.fetchOffset ?? 0).prefix(query.fetchLimit ?? Int.max))
    }

    /// The rows the filter keeps, in order: through the compiled filter when the filter has its
    /// shape and the row holds its values by slot, else through ``QueryEvaluator``.
    private func filter(_ rows: [DefaultSnapshot], by filter: QueryExpression, cursor: RowCursor) throws -> [DefaultSnapshot] {
        // One pair of closures for the whole run, reading the row the cursor is on: closures
        // capturing each row were an allocation per row.
        let property: (QueryPropertyPath) throws -> QueryValue = { try cursor.value(at: $0) }
        let elementProperty: (PersistentIdentifier, QueryPropertyPath) throws -> QueryValue = { identifier, path in
            guard let element = related(identifier) else { return .null }
            return try value(at: path, of: element)
        }
        func evaluate(_ row: DefaultSnapshot) throws -> Bool {
            cursor.row = row
            return try QueryEvaluator(identifier: row.persistentIdentifier, property: property, elementProperty: elementProperty).matches(filter)
        }
        var kept: [DefaultSnapshot] = []
        guard let info = cursor.info, let compiled = CompiledFilter(filter, info: info) else {
            for row in rows where try evaluate(row) { kept.append(row) }
            return kept
        }
        // By index: a row is copied only when it is kept.
        for index in rows.indices {
            var matches: Bool
            if let slots = rows[index].values.slots(for: info) {
                do {
                    matches = try compiled.matches(slots, entityName: info.entityName, related: related)
                } catch is CompiledFilter.Unreadable {
                    matches = try evaluate(rows[index])
                }
            } else {
                matches = try evaluate(rows[index])
            }
            if matches { kept.append(rows[index]) }
        }
        return kept
    }

    /// The rows in the sort's order, stable: each row's keys are read once, and positions are
    /// sorted rather than rows, whose copies are several reference counts each.
    private func sort(_ rows: [DefaultSnapshot], by sortBy: [QuerySortKey], cursor: RowCursor) throws -> [DefaultSnapshot] {
        let width = sortBy.count
        var keys: [QueryValue] = []
        keys.reserveCapacity(rows.count * width)
        for row in rows {
            cursor.row = row
            for key in sortBy { keys.append(try cursor.value(at: key.path)) }
        }
        let ascending = sortBy.map(\.ascending)
        let order = rows.indices.sorted { lhs, rhs in
            for column in 0..<width {
                switch QueryEvaluator.compare(keys[lhs * width + column], keys[rhs * width + column], ascending: ascending[column]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs < rhs
        }
        return order.map { rows[$0] }
    }

    package func evaluator(for row: DefaultSnapshot) -> QueryEvaluator {
        QueryEvaluator(identifier: row.persistentIdentifier, property: { try value(at: $0, of: row) }, elementProperty: { identifier, path in
            guard let element = related(identifier) else { return .null }
            return try value(at: path, of: element)
        })
    }

    /// A property of the row, following to-one relationships for longer paths; `.null` past a nil link.
    package func value(at path: QueryPropertyPath, of row: DefaultSnapshot) throws -> QueryValue {
        var current = row
        for (depth, name) in path.components.enumerated() {
            let raw = current.values[name]?.value
            if depth == path.components.count - 1 {
                guard let raw else { return .null }
                return try Self.queryValue(of: raw, entityName: current.persistentIdentifier.entityName, name: name)
            }
            guard let identifier = raw.flatMap(unwrapOptional) as? PersistentIdentifier, let next = related(identifier) else { return .null }
            current = next
        }
        return .null
    }

    /// A stored value's query form: the common attribute types by their exact type, anything else
    /// unwrapped and converted.
    package static func queryValue(of raw: Any, entityName: String, name: String) throws -> QueryValue {
        if let exact = QueryValue(exactly: raw) { return exact }
        guard let value = unwrapOptional(raw) else { return .null }
        guard let converted = QueryValue(converting: value) else {
            throw QueryTranslationError.unsupported("\(entityName).\(name) has no query form")
        }
        return converted
    }
}

/// The row a run is on, read by slot: a property of the queried entity is found by position in
/// snapshots in its slot order (every snapshot a context saved), where looking its name up hashed
/// it once per row and value.
private final class RowCursor {
    let engine: SnapshotQueryEngine
    let info: ModelTypeInfo?
    var row: DefaultSnapshot?
    /// The slots of the names read so far (a query reads a few).
    private var slots: [(name: String, slot: Int)] = []

    init(engine: SnapshotQueryEngine, entityName: String) {
        self.engine = engine
        info = EntityRegistry.modelType(named: entityName).map { ModelTypeInfo.of($0) }
    }

    func value(at path: QueryPropertyPath) throws -> QueryValue {
        guard let row else { return .null }
        if path.components.count == 1, let info, let values = row.values.slots(for: info), let slot = slot(of: path.components[0], in: info) {
            guard let raw = values[slot] else { return .null }
            return try SnapshotQueryEngine.queryValue(of: raw, entityName: info.entityName, name: path.components[0])
        }
        return try engine.value(at: path, of: row)
    }

    private func slot(of name: String, in info: ModelTypeInfo) -> Int? {
        for entry in slots where entry.name == name { return entry.slot }
        guard let slot = info.slot(named: name) else { return nil }
        slots.append((name, slot))
        return slot
    }
}

/// A filter of the common shape (comparisons of one of the entity's own properties with a constant,
/// joined by `&&`, `||` and `!`, and `contains(where:)` over a to-many whose test has that shape
/// on the related model), resolved once per fetch to slots: each row is then read by position and
/// compared, with the evaluator's own comparison, without building an evaluator and walking the
/// expression tree per row (per related model, for `contains(where:)`). Any other filter is left to
/// ``QueryEvaluator``.
private indirect enum CompiledFilter {
    case compare(slot: Int, name: String, QueryComparisonOperator, constant: QueryValue, propertyFirst: Bool)
    /// `==` (or `!=`, `negated`) of a property with a string: a slot holding exactly a `String` is
    /// compared as it is, without its query value (a copy of the string) built first.
    case stringEquals(slot: Int, name: String, constant: String, negated: Bool)
    /// Whether any model the to-many at `slot` holds passes `test`, compiled for its entity.
    case anyRelated(slot: Int, destination: ModelTypeInfo, test: CompiledFilter)
    case and(CompiledFilter, CompiledFilter)
    case or(CompiledFilter, CompiledFilter)
    case not(CompiledFilter)

    init?(_ expression: QueryExpression, info: ModelTypeInfo) {
        switch expression {
        case let .comparison(.property(path), op, .value(constant), _), let .comparison(.value(constant), op, .property(path), _):
            guard path.components.count == 1, let slot = info.slot(named: path.components[0]),
                  !info.properties[slot].isRelationship else { return nil }
            let propertyFirst = if case .property = expression.comparisonLeft { true } else { false }
            if case .string(let string) = constant, op == .equal || op == .notEqual {
                self = .stringEquals(slot: slot, name: path.components[0], constant: string, negated: op == .notEqual)
                return
            }
            self = .compare(slot: slot, name: path.components[0], op, constant: constant, propertyFirst: propertyFirst)
        case let .and(lhs, rhs):
            guard let lhs = CompiledFilter(lhs, info: info), let rhs = CompiledFilter(rhs, info: info) else { return nil }
            self = .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = CompiledFilter(lhs, info: info), let rhs = CompiledFilter(rhs, info: info) else { return nil }
            self = .or(lhs, rhs)
        case .not(let operand):
            guard let operand = CompiledFilter(operand, info: info) else { return nil }
            self = .not(operand)
        case let .collectionAny(.property(path), variable, test):
            guard path.components.count == 1, let slot = info.slot(named: path.components[0]),
                  case .toMany(let destinationType, _) = info.properties[slot].shape,
                  let elementTest = test.onElement(variable) else { return nil }
            let destination = ModelTypeInfo.of(destinationType)
            guard let compiled = CompiledFilter(elementTest, info: destination) else { return nil }
            self = .anyRelated(slot: slot, destination: destination, test: compiled)
        default:
            return nil
        }
    }

    private static let stringWord = AnyOptionalLayout.typeWord(of: String.self)

    /// The identifiers a to-many slot holds; anything else (a nil optional to-many included) is
    /// the evaluator's.
    private static func identifiers(in held: Any?) throws -> [PersistentIdentifier] {
        guard let held else { throw Unreadable() }
        if holdsExactly(held, [PersistentIdentifier].self) { return takeExactly(held, as: [PersistentIdentifier].self) }
        guard let identifiers = unwrapOptional(held) as? [PersistentIdentifier] else { throw Unreadable() }
        return identifiers
    }

    /// A row this filter cannot read by slot (a related model saved other than by a context, or of
    /// a subclass): the row goes to ``QueryEvaluator``.
    struct Unreadable: Error {}

    func matches(_ slots: [Any?], entityName: String, related: (PersistentIdentifier) -> DefaultSnapshot?) throws -> Bool {
        switch self {
        case let .compare(slot, name, op, constant, propertyFirst):
            let value = try slots[slot].map { try SnapshotQueryEngine.queryValue(of: $0, entityName: entityName, name: name) } ?? .null
            return try propertyFirst ? QueryEvaluator.compare(value, op, constant) : QueryEvaluator.compare(constant, op, value)
        case let .stringEquals(slot, name, constant, negated):
            if let address = InlineAttributes.address(in: slots, at: slot, holding: Self.stringWord) {
                return (address.load(as: String.self) == constant) != negated
            }
            let value = try slots[slot].map { try SnapshotQueryEngine.queryValue(of: $0, entityName: entityName, name: name) } ?? .null
            return try QueryEvaluator.compare(value, negated ? .notEqual : .equal, .string(constant))
        case let .anyRelated(slot, destination, test):
            for identifier in try Self.identifiers(in: slots[slot]) {
                // A related model the store no longer holds reads as all nil, as the evaluator reads it.
                let elementSlots = if let element = related(identifier) {
                    element.values.slots(for: destination)
                } else {
                    [Any?](repeating: nil, count: destination.properties.count)
                }
                guard let elementSlots else { throw Unreadable() }
                if try test.matches(elementSlots, entityName: destination.entityName, related: related) { return true }
            }
            return false
        case let .and(lhs, rhs):
            return try lhs.matches(slots, entityName: entityName, related: related) && rhs.matches(slots, entityName: entityName, related: related)
        case let .or(lhs, rhs):
            return try lhs.matches(slots, entityName: entityName, related: related) || rhs.matches(slots, entityName: entityName, related: related)
        case .not(let operand):
            return !(try operand.matches(slots, entityName: entityName, related: related))
        }
    }
}

private extension QueryExpression {
    /// A `contains(where:)` test on its element `variable`, rewritten to read the element's own
    /// properties; nil when it reads anything else (the row, another variable, a longer path), or
    /// has a shape ``CompiledFilter`` does not compile.
    func onElement(_ variable: Int) -> QueryExpression? {
        switch self {
        case let .comparison(.elementProperty(number, path), op, .value(constant), type) where number == variable && path.components.count == 1:
            return .comparison(.property(path), op, .value(constant), type: type)
        case let .comparison(.value(constant), op, .elementProperty(number, path), type) where number == variable && path.components.count == 1:
            return .comparison(.value(constant), op, .property(path), type: type)
        case let .and(lhs, rhs):
            guard let lhs = lhs.onElement(variable), let rhs = rhs.onElement(variable) else { return nil }
            return .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = lhs.onElement(variable), let rhs = rhs.onElement(variable) else { return nil }
            return .or(lhs, rhs)
        case .not(let operand):
            return operand.onElement(variable).map { .not($0) }
        default:
            return nil
        }
    }

    /// The left operand of a comparison.
    var comparisonLeft: QueryExpression? {
        if case let .comparison(lhs, _, _, _) = self { return lhs }
        return nil
    }
}
