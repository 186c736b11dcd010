import OpenSwiftData

/// Configures a ``SampleRowStore``, the custom store of the article "Writing a custom DataStore"
/// that keeps its models in memory and hands them to contexts as rows.
///
/// ```swift
/// let schema = Schema([Note.self, Tag.self])
/// let container = try ModelContainer(for: schema, configurations: [SampleRowStoreConfiguration(name: "notes", schema: schema)])
/// ```
///
/// The other options are testing aids: `counts` is shared with whoever made the configuration, to
/// see which way a context reached the store; `fault` makes it a broken store, to see a
/// context's answer to one; `defersToMany` leaves each to-many relationship to be read when first
/// read, through `DataStoreDeferredToMany`; `sendsQueriesBack` sends every filter and sort back to
/// the context, as the WWDC24 sample store does, to test the context's side of that path.
public final class SampleRowStoreConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = SampleRowStore

    /// The configuration's name, unique in its container.
    public var name: String
    /// The models the store holds; `nil` for the container's whole schema.
    public var schema: Schema?
    /// How often each of the store's entry points was called.
    public let counts: SampleRowStore.Counts
    /// The bug the store shows, if any.
    public let fault: SampleRowStore.Fault?
    /// Whether fetched rows leave to-many relationships to be read when first read.
    public let defersToMany: Bool
    /// Whether every filter and sort goes back to the context instead of through
    /// `SnapshotQueryEngine`; models by identifier are still found in the store.
    public let sendsQueriesBack: Bool

    /// A configuration of a sample row store named `name`, holding `schema`'s models.
    public init(name: String, schema: Schema? = nil, counts: SampleRowStore.Counts = SampleRowStore.Counts(),
                fault: SampleRowStore.Fault? = nil, defersToMany: Bool = false, sendsQueriesBack: Bool = false) {
        self.name = name
        self.schema = schema
        self.counts = counts
        self.fault = fault
        self.defersToMany = defersToMany
        self.sendsQueriesBack = sendsQueriesBack
    }

    /// Configurations are the same when their names are.
    public static func == (lhs: SampleRowStoreConfiguration, rhs: SampleRowStoreConfiguration) -> Bool { lhs.name == rhs.name }

    /// Hashes the name that `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
