import Foundation

/// What to fetch: a predicate, a sort, paging, and tuning.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "France" },
///                                        sortBy: [SortDescriptor(\.startDate)])
/// descriptor.fetchLimit = 10
/// ```
public struct FetchDescriptor<T>: @unchecked Sendable where T: PersistentModel {
    public var predicate: Predicate<T>?
    public var sortBy: [SortDescriptor<T>]
    public var fetchLimit: Int?
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the fetching context are merged into the results.
    public var includePendingChanges: Bool = true
    /// The properties to load; empty means all.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose targets are loaded in the same fetch.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
