import Foundation

extension QueryTranslator {
    /// Translates sort descriptors that order by `<` on a stored attribute.
    ///
    /// On Linux a `SortDescriptor` on a `String` orders by `<` unless it was given a
    /// `String.StandardComparator`, which orders by `String.compare(_:options:)` instead; such
    /// descriptors, enumerations (whose `<` is their own) and key paths through relationships
    /// throw ``QueryTranslationError/Kind/unsupportedSort``.
    public func translate<T>(_ sort: [SortDescriptor<T>]) throws -> [QuerySortKey] {
        // Most fetches have no sort; mapping even none ran through generic metadata lookups.
        // `count`, not `isEmpty`: that went through `Collection` with two generic type lookups.
        guard sort.count > 0 else { return [] }
        return try sort.map(translate)
    }

    private func translate<T>(_ descriptor: SortDescriptor<T>) throws -> QuerySortKey {
        guard let keyPath = descriptor.keyPath else {
            throw QueryTranslationError.unsupportedSort("A SortDescriptor without a key path is not translated")
        }
        guard descriptor.stringComparator == nil else {
            throw QueryTranslationError.unsupportedSort("A SortDescriptor with a String.StandardComparator (\(keyPath)) is not translated")
        }
        let valueType = type(of: keyPath).valueType
        guard QueryValueType(swiftType: valueType) != nil, isOrderedByQueryValue(valueType) else {
            throw QueryTranslationError.unsupportedSort("Sorting by values of type \(QueryTranslationError.typeName(valueType)) is not translated")
        }
        guard case .attribute(let name, let kind, _) = resolve(keyPath) else {
            throw QueryTranslationError.unsupportedSort("Sorting by \(keyPath), which is not a stored attribute, is not translated")
        }
        return QuerySortKey(path: [name], ascending: descriptor.order == .forward, kind: kind)
    }
}
