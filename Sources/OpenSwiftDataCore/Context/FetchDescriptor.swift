import Foundation

/// What to fetch: a predicate, a sort, paging, and tuning.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "France" },
///                                        sortBy: [SortDescriptor(\.startDate)])
/// descriptor.fetchLimit = 10
/// ```
public struct FetchDescriptor<T>: @unchecked Sendable where T: PersistentModel {
    /// The models to fetch; `nil` fetches every model of the type.
    public var predicate: Predicate<T>?
    /// The order of the results, first descriptor first; ties keep no particular order.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to fetch, after the offset; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many models of the sorted results to skip; `nil` skips none.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the fetching context are merged into the results.
    public var includePendingChanges: Bool = true
    /// The properties to load; empty means all.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose targets are loaded in the same fetch.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// A descriptor fetching the models that match `predicate` (all when `nil`), sorted by `sortBy`.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
