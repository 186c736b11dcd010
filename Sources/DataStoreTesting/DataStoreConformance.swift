import Foundation
import OpenSwiftData
import Testing

/// The behaviour every `DataStore` must show, as Swift Testing checks a store's own test target runs.
///
/// ```swift
/// import DataStoreTesting
/// import Testing
///
/// let kit = DataStoreConformance(capabilities: [.persistent, .batchDelete]) { schema, location in
///     MyStoreConfiguration(name: "conformance", schema: schema, url: location.appending(path: "store.db"))
/// }
///
/// @Test(arguments: DataStoreConformance.checks)
/// func conformance(_ check: DataStoreConformance.Check) throws {
///     try check.run(kit)
/// }
/// ```
///
/// Each check gets an empty directory of its own (`location`), removed afterwards, and opens as
/// many containers on it as it needs; the checks store the kit's own models (`Conformance…`
/// entities), so they run beside the store's other tests. What a store cannot do it declares by
/// leaving a capability out, and the checks for it then verify that the store refuses cleanly
/// (or that the context's fallback gives the same result) instead.
public struct DataStoreConformance: Sendable {
    /// What the store can do beyond the `DataStore` requirements.
    public struct Capabilities: OptionSet, Hashable, Sendable {
        /// The capabilities' bits.
        public let rawValue: Int
        /// Creates capabilities from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A new container on the same location sees everything saved before.
        public static let persistent = Capabilities(rawValue: 1 << 0)
        /// Uniqueness constraints (`@Attribute(.unique)`, `#Unique`) make an insert update the
        /// model it equals (also within one save), and a save that would make two stored models
        /// equal on a constraint fails, leaving the store as it was. Without it, the kit checks that
        /// equal inserts are kept as separate models, and skips the checks that need a failing save.
        public static let uniqueUpserts = Capabilities(rawValue: 1 << 1)
        /// The store adopts `DataStoreBatching`: `delete(model:where:)` deletes in the store at once.
        public static let batchDelete = Capabilities(rawValue: 1 << 2)
        /// `erase()` empties the store (the protocol's default refuses with `unsupportedFeature`).
        public static let erase = Capabilities(rawValue: 1 << 3)

        /// Every capability: a store as complete as the default one.
        public static let all: Capabilities = [.persistent, .uniqueUpserts, .batchDelete, .erase]
    }

    /// Makes the configuration of the store under test for the kit's schema, keeping its files
    /// (if any) inside `location`. Called once per container a check opens.
    public typealias ConfigurationFactory = @Sendable (_ schema: Schema, _ location: URL) throws -> any DataStoreConfiguration

    /// Everything the store keeps for a check's `location`, by name, as bytes that are equal
    /// exactly when the stored data and its shape are: what the migration checks compare to
    /// prove a refused migration changed nothing. The default reads the files under `location`;
    /// a store kept elsewhere (a database server) gives its own, such as a text dump of its tables.
    public typealias StoredContents = @Sendable (_ location: URL) throws -> [String: Data]

    /// What the store under test can do beyond the `DataStore` requirements.
    public let capabilities: Capabilities
    let makeConfiguration: ConfigurationFactory
    let storedContents: StoredContents?

    /// Describes the store under test: what it can do, how to configure it for a check and,
    /// for a store that keeps its data outside `location`, how to read what it keeps.
    public init(capabilities: Capabilities, storedContents: StoredContents? = nil, makeConfiguration: @escaping ConfigurationFactory) {
        self.capabilities = capabilities
        self.makeConfiguration = makeConfiguration
        self.storedContents = storedContents
    }

    /// Describes the store under test, with the arguments in the other order.
    public init(makeConfiguration: @escaping ConfigurationFactory, capabilities: Capabilities) {
        self.init(capabilities: capabilities, makeConfiguration: makeConfiguration)
    }

    /// The models the checks store: every attribute kind, every relationship shape (to-one and
    /// to-many, optional or not, with and without an inverse, many-to-many, self references with
    /// and without an inverse), every delete rule on a to-one and on a to-many, and a uniqueness
    /// constraint.
    public static var schema: Schema {
        Schema([ConformanceItem.self, ConformanceOwner.self, ConformancePet.self, ConformanceCode.self,
                ConformanceRoot.self, ConformanceLeaf.self, ConformanceLabel.self,
                ConformanceAuthor.self, ConformanceBook.self, ConformanceGenre.self, ConformanceAward.self, ConformanceSketch.self,
                ConformanceHouse.self, ConformanceDeed.self, ConformanceEmployee.self])
    }

    /// Every check, in a stable order.
    public static let checks: [Check] = Check.crud + Check.values + Check.queries + Check.relationships + Check.schemaReach
        + Check.graphInsert + Check.deleteRules + Check.batchDelete + Check.constraints + Check.text + Check.lifecycle + Check.history

    /// The schema-migration checks: a store that runs plans (`SchemaMigrator`) passes them.
    public static let migrationChecks: [Check] = Check.migrations

    /// One behaviour, named by what a conforming store does.
    public struct Check: Sendable, CustomStringConvertible, CustomTestStringConvertible {
        /// What the check verifies, as a sentence about the store.
        public let name: String
        let body: @Sendable (ConformanceHarness) throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (ConformanceHarness) throws -> Void) {
            self.name = name
            self.body = body
        }

        /// The check's name.
        public var description: String { name }
        /// The check's name, as Swift Testing shows it for each argument.
        public var testDescription: String { name }

        /// Runs the check against the store the kit describes, in a fresh directory.
        public func run(_ kit: DataStoreConformance) throws {
            let location = FileManager.default.temporaryDirectory
                .appendingPathComponent("DataStoreConformance-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: location, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: location) }
            try body(ConformanceHarness(kit: kit, location: location))
        }
    }
}

/// What a check works with: containers on its location, and the store's capabilities.
struct ConformanceHarness {
    let kit: DataStoreConformance
    let location: URL

    var capabilities: DataStoreConformance.Capabilities { kit.capabilities }

    /// A new container on the check's location (for a persistent store: the same data).
    func makeContainer() throws -> ModelContainer {
        let schema = DataStoreConformance.schema
        return try ModelContainer(for: schema, configurations: [kit.makeConfiguration(schema, location)])
    }

    /// A new container for a schema made of `types` and the types they reach through their
    /// relationships, as `ModelContainer(for:)` makes one in an app.
    func makeContainer(for types: [any PersistentModel.Type]) throws -> ModelContainer {
        let schema = Schema(types)
        return try ModelContainer(for: schema, configurations: [kit.makeConfiguration(schema, location)])
    }

    /// Saves the fixture items in a context of `container`; returns them in fixture order.
    @discardableResult
    func saveItems(in container: ModelContainer) throws -> [ConformanceItem] {
        let context = ModelContext(container)
        let items = ConformanceFixtures.items()
        for item in items { context.insert(item) }
        try context.save()
        return items
    }
}
