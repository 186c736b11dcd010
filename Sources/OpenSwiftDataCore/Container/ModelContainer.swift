import Foundation
import Logging

/// Owns the schema and one store per configuration, and hands out the main-actor context.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self)                       // the default SQLite store
/// let custom = try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(…))
/// ```
///
/// The container sets each configuration's `schema` (when it has none) to the container's schema,
/// validates it, and creates its store. Each entity is served by the first configuration whose
/// schema contains it. Custom (non-`ModelConfiguration`) stores receive the plan given to
/// `init(for:migrationPlan:configurations:)`, `nil` through SwiftData's
/// initializers, which take none; `configurations` lists only the `ModelConfiguration`s.
public class ModelContainer: Equatable, @unchecked Sendable {
    /// Every model type the container's stores hold.
    public final let schema: Schema
    /// Whether some entity of ``schema`` inherits from another, asked once per fetch.
    package let hasInheritance: Bool
    /// The plan the stores were migrated with when opened; `nil` when none was given.
    public final let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// What `configurations` lists (its `ModelConfiguration`s): the stores' configurations until
    /// it is set.
    package var listedConfigurations: [any DataStoreConfiguration]
    package let stores: [StoreSlot]
    private let storeByEntity: EntityTable<StoreSlot>
    private let mainContextLock = NSLock()
    nonisolated(unsafe) private var cachedMainContext: ModelContext?

    /// A container for a schema with one store per configuration, each migrated with
    /// `migrationPlan`. The public initializers that take configurations are declared with the
    /// default store, which they open when given none.
    package init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
                 storeConfigurations configurations: [any DataStoreConfiguration]) throws {
        schema = givenSchema
        hasInheritance = schema.hasInheritance
        self.migrationPlan = migrationPlan
        stores = try ModelContainer.makeStores(configurations, schema: givenSchema, migrationPlan: migrationPlan)
        listedConfigurations = stores.map(\.configuration)
        storeByEntity = try ModelContainer.assign(givenSchema, to: stores)
    }

    /// A container over a store that is open already, serving the store's schema: what a store
    /// hands a migration's custom stages (``SchemaMigrationTarget/migrationContainer(for:)``).
    public init<Store: DataStore>(for store: Store) throws {
        schema = store.schema
        hasInheritance = schema.hasInheritance
        migrationPlan = nil
        stores = [StoreSlot(store, configuration: store.configuration)]
        listedConfigurations = stores.map(\.configuration)
        storeByEntity = try ModelContainer.assign(store.schema, to: stores)
    }

    /// The context bound to the main actor. It autosaves: changes are saved on the main actor's
    /// next turn after they are made.
    @MainActor public var mainContext: ModelContext {
        mainContextLock.withLock {
            if let cachedMainContext { return cachedMainContext }
            let context = ModelContext(self)
            context.isMainContext = true
            context.autosaveEnabled = true
            cachedMainContext = context
            return context
        }
    }

    /// The identifier of the store opened for the configuration named `name`, as the store's
    /// models' ``PersistentIdentifier/storeIdentifier`` carries it; `nil` when no configuration
    /// of this container has that name.
    public func storeIdentifier(forConfigurationNamed name: String) -> String? {
        stores.first { $0.configuration.name == name }?.identifier
    }

    /// The name of the configuration whose store has the identifier `identifier`; `nil` when no
    /// store of this container has it.
    public func configurationName(forStoreIdentifier identifier: String) -> String? {
        stores.first { $0.identifier == identifier }?.configuration.name
    }

    /// Whether both are the same container.
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs === rhs }

    /// Removes all data from every store.
    public func erase() throws {
        for slot in stores { try slot.erase() }
    }

    /// Removes all data from every store, ignoring failures; use ``erase()``.
    @available(*, deprecated, renamed: "erase", message: "deleteAllData has been replaced by `erase`. Use `erase` to completely remove all of the data from a store.")
    public func deleteAllData() {
        try? erase()
    }

    /// The store serving an entity.
    package func slot(forEntity name: String) throws -> StoreSlot {
        guard let slot = storeByEntity[name] else {
            throw PersistenceError(.unknownEntity, "\(name) is not part of this container's schema; pass \(name).self to ModelContainer(for:).")
        }
        return slot
    }

    private static func makeStores(_ configurations: [any DataStoreConfiguration], schema: Schema,
                                   migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> [StoreSlot] {
        var names: Set<String> = []
        return try configurations.map { configuration in
            guard names.insert(configuration.name).inserted else { throw SwiftDataError.duplicateConfiguration }
            return try makeStore(configuration, schema: schema, migrationPlan: migrationPlan)
        }
    }

    private static func makeStore<C: DataStoreConfiguration>(_ configuration: C, schema: Schema,
                                                              migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> StoreSlot {
        var configuration = configuration
        if let own = configuration.schema {
            guard own.entities.allSatisfy({ schema.entitiesByName[$0.name] != nil }) else {
                throw SwiftDataError.configurationSchemaNotFoundInContainerSchema
            }
        } else {
            configuration.schema = schema
        }
        try configuration.validate()
        // A store reading its file decodes entity names: they are this schema's, whatever version
        // another container in the process registered last.
        let store = try EntityRegistry.resolving(in: configuration.schema) { try C.Store(configuration, migrationPlan: migrationPlan) }
        var metadata: Logger.Metadata = ["store": "\(configuration.name)", "type": "\(C.Store.self)"]
        if let location = (configuration as? any StoreLocationDescribing)?.storeLocation {
            metadata["location"] = "\(location)"
        }
        ModelContainer.logger.info("Opened store", metadata: metadata)
        return StoreSlot(store, configuration: configuration)
    }

    private static func assign(_ schema: Schema, to stores: [StoreSlot]) throws -> EntityTable<StoreSlot> {
        var result: [(String, StoreSlot)] = []
        for entity in schema.entities {
            guard let slot = stores.first(where: { $0.entityNames.contains(entity.name) }) else {
                throw PersistenceError(.unknownEntity, "No configuration's schema contains \(entity.name); add it to one configuration's schema, or leave that configuration's schema nil.")
            }
            result.append((entity.name, slot))
        }
        return EntityTable(result)
    }
}
