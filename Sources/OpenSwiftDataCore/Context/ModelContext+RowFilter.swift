import Foundation

extension ModelContext {
    /// The rows a predicate the store sent back (`preferInMemoryFilter`) can keep, tested before
    /// any model is built: with the compiled filter the snapshot stores use, when the predicate
    /// compares the model's own attributes only. The survivors are still tested with the
    /// `Predicate` itself once they are models, so Swift's semantics decide; this only spares
    /// building a model for every stored row. Any row the filter cannot read, any relationship in
    /// the predicate, or pending changes of `T` (whose rows hold stored values) keep every row.
    func rowsPassingStoreFilter<T: PersistentModel>(_ rows: [StoreSlot.Row], _ descriptor: FetchDescriptor<T>,
                                                    info: ModelTypeInfo) -> [StoreSlot.Row] {
        guard descriptor.predicate != nil, rows.count > 1, !hasPendingChanges(of: T.self),
              let filter = try? DataStoreQuery(descriptor, translator: ModelQueryResolution.translator(for: T.self)).filter,
              let compiled = CompiledFilter(filter, info: info), !compiled.readsRelatedModels else { return rows }
        let width = info.properties.count
        var kept: [StoreSlot.Row] = []
        for index in rows.indices {
            guard rows[index].values.count == width,
                  let passes = try? compiled.matches(rows[index].values, entityName: info.entityName, related: { _ in nil })
            else { return rows }
            if passes { kept.append(rows[index]) }
        }
        return kept
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
