/// A whole fetch in store-neutral form: what ``QueryTranslator`` makes of a `FetchDescriptor`.
///
/// ```swift
/// let query = try translator.translate(entityName: "Trip", predicate: descriptor.predicate,
///                                      sortBy: descriptor.sortBy, fetchLimit: descriptor.fetchLimit,
///                                      fetchOffset: descriptor.fetchOffset)
/// ```
public struct DataStoreQuery: Codable, Sendable, Hashable {
    /// The name of the entity whose models are fetched.
    public var entityName: String
    /// Nil fetches every model of the entity.
    public var filter: QueryExpression?
    /// The sort criteria, most significant first; empty leaves the store's order.
    public var sortBy: [QuerySortKey]
    /// The most models to return; nil for no limit.
    public var fetchLimit: Int?
    /// How many matching models to skip first; nil for none.
    public var fetchOffset: Int?

    /// Creates a query of an entity's models.
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
    /// The property whose values are compared.
    public var path: QueryPropertyPath
    /// Whether smaller values come first.
    public var ascending: Bool
    /// The kind of the property's values, which decides how they compare.
    public var kind: QueryValueKind

    /// Creates a sort criterion.
    public init(path: QueryPropertyPath, ascending: Bool, kind: QueryValueKind) {
        self.path = path
        self.ascending = ascending
        self.kind = kind
    }
}
