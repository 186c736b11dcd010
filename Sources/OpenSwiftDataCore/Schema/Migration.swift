/// One version of an app's models, for a ``SchemaMigrationPlan``.
public protocol VersionedSchema {
    /// The model types of this version.
    static var models: [any PersistentModel.Type] { get }
    /// The version's number, which a store records to know what to migrate from.
    static var versionIdentifier: Schema.Version { get }
}

/// The ordered versions of an app's schema and the stages that migrate between them.
public protocol SchemaMigrationPlan {
    /// The schema versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The steps between consecutive versions, in order.
    static var stages: [MigrationStage] { get }
}

/// One step of a ``SchemaMigrationPlan``.
public enum MigrationStage: @unchecked Sendable {
    /// Migrates by changing tables only: added, removed and renamed properties, with no code.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// Migrates with code: `willMigrate` runs on the old schema before the tables change, and
    /// `didMigrate` on the new one after.
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
                willMigrate: ((_ context: ModelContext) throws -> Void)?,
                didMigrate: ((_ context: ModelContext) throws -> Void)?)
}
