/// One version of an app's models, for a ``SchemaMigrationPlan``.
public protocol VersionedSchema {
    static var models: [any PersistentModel.Type] { get }
    static var versionIdentifier: Schema.Version { get }
}

/// The ordered versions of an app's schema and the stages that migrate between them.
public protocol SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { get }
    static var stages: [MigrationStage] { get }
}

/// One step of a ``SchemaMigrationPlan``.
public enum MigrationStage: @unchecked Sendable {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
                willMigrate: ((_ context: ModelContext) throws -> Void)?,
                didMigrate: ((_ context: ModelContext) throws -> Void)?)
}
