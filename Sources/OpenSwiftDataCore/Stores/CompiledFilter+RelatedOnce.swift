extension CompiledFilter {
    /// The filter with each `contains(where:)` whose test costs less run once on every model of
    /// its destination than once per related model the rows hold: looking a related model up by
    /// its key costs several times testing a model in turn.
    func testingRelatedOnce(for rows: [DefaultSnapshot], info: ModelTypeInfo, entityRows: (String) -> [DefaultSnapshot],
                            related: (PersistentIdentifier) -> DefaultSnapshot?) -> CompiledFilter {
        // Never nil: a `contains(where:)` not worth testing once stays as it is.
        replacingAnyRelated { slot, destination, test in
            let candidates = entityRows(destination.entityName)
            guard candidates.count <= 2 * Self.estimatedLookups(rows, slot: slot, info: info),
                  let (scope, passing) = Self.passingKeys(of: candidates, destination: destination, test: test, related: related)
            else { return .anyRelated(slot: slot, destination: destination, test: test) }
            return .anyRelatedKey(slot: slot, RelatedKeys(scope: scope, entityName: destination.entityName, passing: passing))
        } ?? self
    }

    /// The filter with each `contains(where:)` (`anyRelated`) replaced by what `replacement`
    /// makes of it; nil when `replacement` answers nil for any of them.
    func replacingAnyRelated(_ replacement: (_ slot: Int, _ destination: ModelTypeInfo, _ test: CompiledFilter) -> CompiledFilter?) -> CompiledFilter? {
        switch self {
        case let .anyRelated(slot, destination, test):
            return replacement(slot, destination, test)
        case let .and(lhs, rhs):
            guard let lhs = lhs.replacingAnyRelated(replacement), let rhs = rhs.replacingAnyRelated(replacement) else { return nil }
            return .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = lhs.replacingAnyRelated(replacement), let rhs = rhs.replacingAnyRelated(replacement) else { return nil }
            return .or(lhs, rhs)
        case .not(let operand):
            return operand.replacingAnyRelated(replacement).map { .not($0) }
        case .compare, .stringEquals, .anyRelatedKey:
            return self
        }
    }

    /// About how many related models the rows hold in the to-many at `slot`, from the first rows.
    private static func estimatedLookups(_ rows: [DefaultSnapshot], slot: Int, info: ModelTypeInfo) -> Int {
        let sample = rows.prefix(32)
        guard !sample.isEmpty else { return 0 }
        var held = 0
        for row in sample {
            if let slots = row.values.slots(for: info), let identifiers = try? identifiers(in: slots[slot]) { held += identifiers.count }
        }
        return held * rows.count / sample.count
    }

    /// The keys of the destination's `rows` that pass `test`, for a context testing a
    /// `contains(where:)` its store sent back; nil when a row cannot be tested here, or when a
    /// related model the store no longer holds (read as all nil) would pass.
    static func passingKeys(of rows: [DataStoreRow], destination: ModelTypeInfo, test: CompiledFilter) -> RelatedKeys? {
        guard missingModelsFail(test, destination: destination) else { return nil }
        var passing = Set<PrimaryKey>()
        for index in rows.indices {
            guard let passes = try? test.matches(rows[index].values, entityName: destination.entityName, related: { _ in nil }) else { return nil }
            if passes { passing.insert(rows[index].persistentIdentifier.primaryKey) }
        }
        return RelatedKeys(scope: rows.first?.persistentIdentifier.scope, entityName: destination.entityName, passing: passing)
    }

    /// Whether a related model the store no longer holds, read as all nil, fails `test`: a key
    /// missing from a set of passing keys must.
    private static func missingModelsFail(_ test: CompiledFilter, destination: ModelTypeInfo,
                                          related: (PersistentIdentifier) -> DefaultSnapshot? = { _ in nil }) -> Bool {
        let nothing = [Any?](repeating: nil, count: destination.properties.count)
        return (try? test.matches(nothing, entityName: destination.entityName, related: related)) == false
    }

    /// The keys of the destination's models that pass `test`, and their identifiers' scope; nil
    /// when a model cannot be tested here, or when a related model the store no
    /// longer holds (read as all nil) would pass, as a key missing from the set must not.
    private static func passingKeys(of candidates: [DefaultSnapshot], destination: ModelTypeInfo, test: CompiledFilter,
                                    related: (PersistentIdentifier) -> DefaultSnapshot?) -> (IdentifierScope?, Set<PrimaryKey>)? {
        guard missingModelsFail(test, destination: destination, related: related) else { return nil }
        var passing = Set<PrimaryKey>()
        // By index: a snapshot is copied (several reference counts) only when it passes.
        for index in candidates.indices {
            // A snapshot read back from a file holds its values by name.
            let slots = candidates[index].values.slots(for: destination)
                ?? destination.properties.map { candidates[index].values[$0.name]?.value }
            guard let passes = try? test.matches(slots, entityName: destination.entityName, related: related) else { return nil }
            if passes { passing.insert(candidates[index].persistentIdentifier.primaryKey) }
        }
        let scope = candidates.first?.persistentIdentifier.scope
        return (scope, passing)
    }
}
