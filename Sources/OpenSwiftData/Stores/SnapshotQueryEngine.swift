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
        var result = rows
        if let filter = query.filter {
            do {
                result = try result.filter { try evaluator(for: $0).matches(filter) }
            } catch is QueryEvaluationError {
                throw DataStoreError.preferInMemoryFilter
            }
        }
        if !query.sortBy.isEmpty {
            let keyed = try result.map { row in (row, try query.sortBy.map { try value(at: $0.path, of: row) }) }
            result = keyed.enumerated().sorted { lhs, rhs in
                for (index, key) in query.sortBy.enumerated() {
                    switch QueryEvaluator.compare(lhs.element.1[index], rhs.element.1[index], ascending: key.ascending) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return lhs.offset < rhs.offset
            }.map(\.element.0)
        }
        return Array(result.dropFirst(query.fetchOffset ?? 0).prefix(query.fetchLimit ?? Int.max))
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
            let value = raw.flatMap(unwrapOptional)
            if depth == path.components.count - 1 {
                guard let value else { return .null }
                guard let converted = QueryValue(converting: value) else {
                    throw QueryTranslationError.unsupported("\(current.persistentIdentifier.entityName).\(name) has no query form")
                }
                return converted
            }
            guard let identifier = value as? PersistentIdentifier, let next = related(identifier) else { return .null }
            current = next
        }
        return .null
    }
}
