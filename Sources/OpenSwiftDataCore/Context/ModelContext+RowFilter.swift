import Foundation

extension ModelContext {
    /// What the context did with rows whose filter or sort the store sent back
    /// (`preferInMemoryFilter`, `preferInMemorySort`) before building any model.
    struct SentBackRows {
        var rows: [StoreSlot.Row]
        /// Whether `rows` are exactly those the predicate keeps.
        var filtered = false
        /// Whether `rows` are in the descriptor's order already.
        var sorted: Bool
    }

    /// The rows a sent-back predicate can keep, and in the descriptor's order when its sort was sent
    /// back too: tested and ordered with the compiled filter and the comparisons the snapshot
    /// stores answer with, where the predicate reads the model's own attributes and
    /// `contains(where:)` over a to-many, and every sort key reads an attribute. The rows hold
    /// the values as the store answered them, not yet read into slot form. The compiled filter
    /// decides as it decides for the snapshot stores, so the kept rows need no second test as
    /// models; this spares building a model for every stored row (and every related one),
    /// evaluating the `Predicate` on each, and sorting models through key paths. A row the
    /// filter cannot read, or pending changes of `T` or of a related entity the filter reads
    /// (whose rows hold stored values), leave the rows as they came, for the `Predicate` to test
    /// as models.
    func sentBackRows<T: PersistentModel>(_ rows: [StoreSlot.Row], _ descriptor: FetchDescriptor<T>, filter: Bool, sort: Bool,
                                          info: ModelTypeInfo) -> SentBackRows {
        let unchanged = SentBackRows(rows: rows, sorted: false)
        guard rows.count > 1, !hasPendingChanges(of: T.self),
              let query = try? DataStoreQuery(descriptor) else { return unchanged }
        var kept = rows
        var filtered = false
        if filter, let expression = query.filter {
            guard var compiled = CompiledFilter(expression, info: info) else { return unchanged }
            if compiled.readsRelatedModels {
                guard let tested = testedOnStoredModels(compiled) else { return unchanged }
                compiled = tested
            }
            guard let passing = Self.rows(rows, passing: compiled, info: info) else { return unchanged }
            kept = passing
            filtered = true
        }
        guard sort, !query.sortBy.isEmpty else { return SentBackRows(rows: kept, filtered: filtered, sorted: false) }
        guard let ordered = Self.rows(kept, sortedBy: query.sortBy, info: info) else { return SentBackRows(rows: kept, filtered: filtered, sorted: false) }
        return SentBackRows(rows: ordered, filtered: filtered, sorted: true)
    }

    /// The filter with each `contains(where:)` test run once on every stored model of its
    /// destination, fetched as rows that never become models; nil when the destination has
    /// pending changes, or its rows cannot be tested here.
    private func testedOnStoredModels(_ filter: CompiledFilter) -> CompiledFilter? {
        filter.replacingAnyRelated { slot, destination, test in
            guard !hasPendingChanges(ofEntity: destination.entityName), let keys = storedKeys(of: destination, passing: test) else { return nil }
            return .anyRelatedKey(slot: slot, keys)
        }
    }

    /// The keys of the destination's stored models that pass `test`: its store's rows, tested as
    /// they arrive and dropped before any is read into slot form.
    private func storedKeys(of destination: ModelTypeInfo, passing test: CompiledFilter) -> CompiledFilter.RelatedKeys? {
        guard let slot = try? container.slot(forEntity: destination.entityName) else { return nil }
        var keys: CompiledFilter.RelatedKeys?
        func fetch<M: PersistentModel>(_: M.Type) {
            _ = try? slot.fetch(FetchDescriptor<M>(), editingState: editingState) { rows in
                keys = CompiledFilter.passingKeys(of: rows, destination: destination, test: test)
                return []
            }
        }
        fetch(destination.modelType)
        return keys
    }

    /// The rows `filter` keeps; nil when a row cannot be read by slot.
    private static func rows(_ rows: [StoreSlot.Row], passing filter: CompiledFilter, info: ModelTypeInfo) -> [StoreSlot.Row]? {
        let width = info.properties.count
        var kept: [StoreSlot.Row] = []
        for index in rows.indices {
            guard rows[index].values.count == width,
                  let passes = try? filter.matches(rows[index].values, entityName: info.entityName, related: { _ in nil }) else { return nil }
            if passes { kept.append(rows[index]) }
        }
        return kept
    }

    /// The rows in the order of `sortBy`, ties in their own order, as the snapshot stores sort;
    /// nil when a key is not one of the model's own attributes, a value cannot be read, or a key
    /// is not a number, date or Boolean (Swift sorts strings with the descriptor's comparator,
    /// `localizedStandard` unless it names another).
    private static func rows(_ rows: [StoreSlot.Row], sortedBy sortBy: [QuerySortKey], info: ModelTypeInfo) -> [StoreSlot.Row]? {
        var slots: [(slot: Int, name: String)] = []
        for key in sortBy {
            guard [.integer, .double, .date, .bool].contains(key.kind), key.path.components.count == 1, let slot = info.slot(named: key.path.components[0]),
                  !info.properties[slot].isRelationship else { return nil }
            slots.append((slot, key.path.components[0]))
        }
        let width = slots.count
        var keys: [QueryValue] = []
        keys.reserveCapacity(rows.count * width)
        for row in rows {
            guard row.values.count == info.properties.count else { return nil }
            for (slot, name) in slots {
                // A nil value sorts as null; only a value that cannot be read gives the order up.
                guard let stored = row.values[slot] else {
                    keys.append(.null)
                    continue
                }
                guard let value = try? SnapshotQueryEngine.queryValue(of: stored, entityName: info.entityName, name: name) else { return nil }
                keys.append(value)
            }
        }
        return SnapshotQueryEngine.order(rows.count, keys: keys, ascending: sortBy.map(\.ascending)).map { rows[$0] }
    }
}

extension CompiledFilter {
    /// Whether testing a row reads other models (`contains(where:)` over a to-many).
    var readsRelatedModels: Bool {
        switch self {
        case .compare, .stringEquals: false
        case .anyRelated, .anyRelatedKey: true
        case let .and(lhs, rhs), let .or(lhs, rhs): lhs.readsRelatedModels || rhs.readsRelatedModels
        case .not(let operand): operand.readsRelatedModels
        }
    }
}
