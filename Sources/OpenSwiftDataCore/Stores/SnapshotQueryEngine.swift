import Foundation

/// Runs a fetch over `DefaultSnapshot`s without building models: the filter (through a compiled
/// form for the common shapes, ``QueryEvaluator`` for the rest), a stable sort, then offset and
/// limit. ``InMemoryStore`` and `JSONStore` run their fetches with it, and a custom store that
/// keeps `DefaultSnapshot`s can run its own the same way instead of sending every predicate back
/// to the context.
///
/// ```swift
/// let engine = SnapshotQueryEngine(related: { identifier in snapshotsByIdentifier[identifier] },
///                                  entitySnapshots: { entityName in snapshotsByEntity[entityName] ?? [] })
/// let matching = try engine.run(request.descriptor, over: snapshotsByEntity[entityName] ?? [])
/// ```
///
/// A filter or sort the engine cannot evaluate exactly as Swift would throws
/// `DataStoreError.preferInMemoryFilter` (or `…Sort`): throw it on from `fetch`, and the context
/// runs that part itself.
public struct SnapshotQueryEngine {
    /// Looks up the snapshot a relationship refers to, for paths like `trip.name`.
    let related: (PersistentIdentifier) -> DefaultSnapshot?
    /// Every snapshot of an entity, when the store can hand them over at once: a
    /// `contains(where:)` then tests each related model once, not once per lookup.
    let entitySnapshots: ((String) -> [DefaultSnapshot])?

    /// An engine that follows relationships with `related`, the stored snapshot of an identifier
    /// (nil when there is none). `entitySnapshots`, every stored snapshot of an entity by its name,
    /// lets a `contains(where:)` over a to-many test each related model once per fetch instead of
    /// once per owner; without it the engine looks each related model up.
    public init(related: @escaping (PersistentIdentifier) -> DefaultSnapshot?,
                entitySnapshots: ((String) -> [DefaultSnapshot])? = nil) {
        self.related = related
        self.entitySnapshots = entitySnapshots
    }

    /// The snapshots among `snapshots` (one entity's, in the store's order) that the descriptor
    /// selects, in its order, offset and limited.
    /// - Throws: `DataStoreError.preferInMemoryFilter` or `.preferInMemorySort` for a predicate or
    ///   sort the engine cannot run exactly; the context then runs it.
    public func run<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, over snapshots: [DefaultSnapshot]) throws -> [DefaultSnapshot] {
        try run(DataStoreQuery(descriptor), over: snapshots)
    }

    /// The snapshots matching a store-neutral query, in its order. An expression Swift would throw
    /// on (a failed force unwrap) or a value with no query form sends the filter back to the
    /// context, which evaluates it with Swift's semantics.
    /// - Throws: `DataStoreError.preferInMemoryFilter` for a filter the engine cannot run exactly.
    public func run(_ query: DataStoreQuery, over rows: [DefaultSnapshot]) throws -> [DefaultSnapshot] {
        do {
            return try runExactly(query, over: rows)
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemoryFilter
        }
    }

    private func runExactly(_ query: DataStoreQuery, over rows: [DefaultSnapshot]) throws -> [DefaultSnapshot] {
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
        guard let info = cursor.info, var compiled = CompiledFilter(filter, info: info) else {
            for row in rows where try evaluate(row) { kept.append(row) }
            return kept
        }
        if let entitySnapshots { compiled = compiled.testingRelatedOnce(for: rows, info: info, entityRows: entitySnapshots, related: related) }
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
        return Self.order(rows.count, keys: keys, ascending: sortBy.map(\.ascending)).map { rows[$0] }
    }

    /// The indices of `count` rows in sorted order, from their sort keys (`ascending.count` per
    /// row, row after row), ties in row order as Swift's stable sort leaves them.
    static func order(_ count: Int, keys: [QueryValue], ascending: [Bool]) -> [Int] {
        let width = ascending.count
        return (0..<count).sorted { lhs, rhs in
            for column in 0..<width {
                switch QueryEvaluator.compare(keys[lhs * width + column], keys[rhs * width + column], ascending: ascending[column]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs < rhs
        }
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
