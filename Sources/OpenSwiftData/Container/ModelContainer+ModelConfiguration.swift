import OpenSwiftDataCore

// The container's initializers that take configurations live beside the default store: given
// none, they open it, which the core, knowing no concrete store, cannot.
extension ModelContainer {
    /// The `ModelConfiguration`s of the container's default stores (custom stores' are not listed).
    public var configurations: Set<ModelConfiguration> {
        get { Set(listedConfigurations.compactMap { $0 as? ModelConfiguration }) }
        set { listedConfigurations = Array(newValue) }
    }

    /// A container for these model types, in the default store unless configurations say otherwise.
    public convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema, in the default store unless configurations say otherwise.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema with one store per configuration (the default store when empty),
    /// each migrated with `migrationPlan` when it was written by an older schema.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: [ModelConfiguration]) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan,
                      storeConfigurations: configurations.isEmpty ? [ModelConfiguration()] : configurations)
    }

    /// A container for these model types in stores of any kind, such as `JSONStore` or your own.
    @_disfavoredOverload
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration...) throws {
        try self.init(for: Schema(forTypes), configurations: configurations)
    }

    /// A container for a schema with one store of any kind per configuration (the default store
    /// when empty).
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(for: givenSchema, migrationPlan: nil, configurations: configurations)
    }

    /// A container for a schema with one store of any kind per configuration (the default store
    /// when empty), each store migrated with `migrationPlan` (``SchemaMigrator``). SwiftData's
    /// own initializers for custom stores take no plan; this one gives it to every store.
    @_disfavoredOverload
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
                            configurations: [any DataStoreConfiguration]) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan,
                      storeConfigurations: configurations.isEmpty ? [ModelConfiguration()] : configurations)
    }
}
