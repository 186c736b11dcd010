import Logging

/// Runs a ``SchemaMigrationPlan`` on a store: finds where the store stands from its
/// ``StoredSchema``, runs the plan's stages from there to the current version in order, and
/// leaves the store recorded at the current schema.
///
/// Any store calls it from its initializer with the plan it receives:
///
/// ```swift
/// public init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
///     …
///     try SchemaMigrator(schema: schema, plan: migrationPlan, storeName: configuration.name)
///         .migrate(MyMigrationTarget(file: file))
/// }
/// ```
///
/// A `lightweight` stage is the store's inferred schema change
/// (``SchemaMigrationTarget/applySchemaChange(to:recording:)``); a `custom` stage runs
/// `willMigrate` with a context over the old version's model types, then the schema change, then
/// `didMigrate` with a context over the new version's, saving each context's changes. Two
/// consecutive versions of `schemas` with no stage leaving the first are joined by an inferred
/// lightweight stage. Without a plan, the store's schema change is inferred directly.
///
/// Errors: `SwiftDataError.unknownDataStoreSchema` for a store written with a schema the plan
/// does not list; `.unknownSchema` for one from which no stages lead to the current one;
/// `.backwardMigration` for a store
/// written with a later version than the current one when no stage leads back;
/// `.loadIssueModelContainer` for a plan that contradicts itself.
public struct SchemaMigrator {
    /// The schema the store serves: where every migration ends.
    public let schema: Schema
    /// The plan the store was opened with, if any.
    public let plan: (any SchemaMigrationPlan.Type)?
    let storeName: String
    let versions: [Schema]
    let schemasByVersion: [Schema.Version: Schema]

    /// Checks the plan; throws `SwiftDataError.loadIssueModelContainer` naming what contradicts.
    public init(schema: Schema, plan: (any SchemaMigrationPlan.Type)?, storeName: String = "") throws {
        self.schema = schema
        self.plan = plan
        self.storeName = storeName
        let versions = try plan.map(Self.validated) ?? []
        self.versions = versions
        schemasByVersion = Dictionary(versions.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        EntityRegistry.register(schema)
    }

    /// The version recorded once the store serves ``schema``: the plan's version of that shape
    /// (its last schema when none has it), or the schema's own without a plan.
    public var currentVersion: Schema.Version {
        target?.version ?? schema.version
    }

    /// The plan's schema the migration ends at.
    private var target: Schema? {
        let shape = StoredSchema(schema)
        return versions.last { StoredSchema($0).hasSameShape(as: shape) } ?? versions.last
    }

    /// The stages a store recorded as `stored` goes through, in order; empty for a store with no
    /// record or already at the current version.
    public func steps(from stored: StoredSchema?) throws -> [MigrationStep] {
        guard let plan, let stored, let target else { return [] }
        let start = try version(of: stored, plan: plan)
        guard start.version != target.version else { return [] }
        if let path = path(from: start.version, to: target.version, plan: plan) { return path }
        let listed = versions.map(\.version.description).joined(separator: ", ")
        if start.version > target.version {
            throw SwiftDataError.backwardMigration.explaining("The store '\(storeName)' was written with schema version \(start.version), later than the current \(target.version), and \(plan) has no stage back to \(target.version). Open it with the app version that wrote it, or add a stage from \(start.version) to \(target.version).")
        }
        throw SwiftDataError.unknownSchema.explaining("No stages of \(plan) (versions \(listed)) lead from the store '\(storeName)''s version \(start.version) to \(target.version); add the missing stages.")
    }

    /// Runs the stages the store needs and records it at the current schema. Returns the stages run.
    @discardableResult
    public func migrate(_ store: some SchemaMigrationTarget) throws -> [MigrationStep] {
        let stored = try store.storedSchema()
        let steps = try steps(from: stored)
        for (number, step) in steps.enumerated() {
            ModelContainer.logger.info("Migrating store", metadata: ["store": "\(storeName)", "stage": "\(number + 1)/\(steps.count)", "step": "\(step)"])
            try run(step, on: store)
        }
        try EntityRegistry.resolving(in: schema) {
            try store.applySchemaChange(to: schema, recording: finalRecord(after: stored))
        }
        if !steps.isEmpty {
            ModelContainer.logger.info("Migrated store", metadata: ["store": "\(storeName)", "version": "\(currentVersion)"])
        }
        return steps
    }

    private func run(_ step: MigrationStep, on store: some SchemaMigrationTarget) throws {
        if let willMigrate = step.willMigrate {
            try inContext(of: step.source, store, willMigrate)
        }
        try EntityRegistry.resolving(in: step.destination) {
            try store.applySchemaChange(to: step.destination, recording: StoredSchema(step.destination))
        }
        if let didMigrate = step.didMigrate {
            try inContext(of: step.destination, store, didMigrate)
        }
    }

    private func inContext(of schema: Schema, _ store: some SchemaMigrationTarget, _ body: (ModelContext) throws -> Void) throws {
        // Entity names repeat across versions (`V1.Trip`, `V2.Trip`): snapshots decode through
        // the types of the version at work.
        try EntityRegistry.resolving(in: schema) {
            let context = ModelContext(try store.migrationContainer(for: schema))
            try body(context)
            if context.hasChanges { try context.save() }
        }
    }

    /// Without a plan, a store whose shape has not changed keeps its record and version.
    private func finalRecord(after stored: StoredSchema?) -> StoredSchema {
        let record = StoredSchema(schema, version: currentVersion)
        if plan == nil, let stored, stored.hasSameShape(as: record) { return stored }
        return record
    }
}
