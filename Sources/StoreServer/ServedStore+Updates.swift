import Foundation
import OpenSwiftData

extension ServedStore {
    /// The position of the first updated snapshot whose model the store does not hold (deleted,
    /// or never saved): a store would write it as a new row, or say it belongs to another store.
    /// Asked per entity, a few hundred identifiers a query. Call inside `serialised`.
    func firstMissingUpdate(_ updated: [DefaultSnapshot], in store: any QueryableDataStore) throws -> Int? {
        guard !updated.isEmpty else { return nil }
        var held: Set<PersistentIdentifier> = []
        let byEntity = Dictionary(grouping: updated.map(\.persistentIdentifier), by: \.entityName)
        for (entityName, identifiers) in byEntity {
            var start = identifiers.startIndex
            while start < identifiers.endIndex {
                let chunk = identifiers[start..<min(start + 256, identifiers.endIndex)]
                held.formUnion(try heldIdentifiers(chunk, entityName: entityName, in: store))
                start = chunk.endIndex
            }
        }
        return updated.firstIndex { !held.contains($0.persistentIdentifier) }
    }

    private func heldIdentifiers(_ identifiers: ArraySlice<PersistentIdentifier>, entityName: String,
                                 in store: any QueryableDataStore) throws -> [PersistentIdentifier] {
        do {
            return try store.fetchIdentifiers(DataStoreQuery(entityName: entityName, filter: Self.anyOf(identifiers), sortBy: []))
        } catch DataStoreError.preferInMemoryFilter {
            // An identifier the store cannot look up by (not one it minted): compare in memory.
            let wanted = Set(identifiers)
            return try store.fetchIdentifiers(DataStoreQuery(entityName: entityName, sortBy: [])).filter(wanted.contains)
        }
    }

    /// `id == a || id == b || …`, as a balanced tree so its depth stays small.
    private static func anyOf(_ identifiers: ArraySlice<PersistentIdentifier>) -> QueryExpression {
        guard identifiers.count > 1 else {
            return .comparison(.identifier, .equal, .value(.identifier(identifiers[identifiers.startIndex])), type: QueryValueType(.identifier))
        }
        let middle = identifiers.startIndex + identifiers.count / 2
        return .or(anyOf(identifiers[..<middle]), anyOf(identifiers[middle...]))
    }
}
