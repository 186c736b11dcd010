/// A whole fetch in store-neutral form: what ``QueryTranslator`` makes of a `FetchDescriptor`.
///
/// ```swift
/// let query = try translator.translate(entityName: "Trip", predicate: descriptor.predicate,
///                                      sortBy: descriptor.sortBy, fetchLimit: descriptor.fetchLimit,
///                                      fetchOffset: descriptor.fetchOffset)
/// ```
public struct DataStoreQuery: Codable, Sendable, Hashable {
    public var entityName: String
    /// Nil fetches every model of the entity.
    public var filter: QueryExpression?
    public var sortBy: [QuerySortKey]
    public var fetchLimit: Int?
    public var fetchOffset: Int?

    public init(entityName: String, filter: QueryExpression? = nil, sortBy: [QuerySortKey] = [], fetchLimit: Int? = nil, fetchOffset: Int? = nil) {
        self.entityName = entityName
        self.filter = filter
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

/// One sort criterion: Swift's `<` on the property's values, nil first when ascending (as
/// Foundation's `SortDescriptor` orders optionals).
public struct QuerySortKey: Codable, Sendable, Hashable {
    public var path: QueryPropertyPath
    public var ascending: Bool
    public var kind: QueryValueKind

    public init(path: QueryPropertyPath, ascending: Bool, kind: QueryValueKind) {
        self.path = path
        self.ascending = ascending
        self.kind = kind
    }
}
