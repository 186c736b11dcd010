/// One stage of a plan, as ``SchemaMigrator`` runs it on a store: the schemas of both versions
/// and, for a custom stage, its closures.
public struct MigrationStep: CustomStringConvertible, @unchecked Sendable {
    /// Whether a stage is inferred from the schemas or runs the plan's closures too.
    public enum Kind: String, Sendable {
        /// Inferred from the two schemas.
        case lightweight
        /// The plan's `willMigrate` and `didMigrate` around the inferred change.
        case custom
    }

    /// Whether the stage is lightweight or custom.
    public let kind: Kind
    /// The schema of the version the stage starts from, and of the one it ends at.
    public let source: Schema
    /// The schema of the version the stage ends at.
    public let destination: Schema
    let willMigrate: ((ModelContext) throws -> Void)?
    let didMigrate: ((ModelContext) throws -> Void)?

    /// The stage's kind and versions, as the migration log shows it.
    public var description: String { "\(kind.rawValue) \(source.version) → \(destination.version)" }

    init(_ stage: MigrationStage, schemas: [Schema.Version: Schema]) {
        switch stage {
        case .lightweight(let from, let to):
            kind = .lightweight
            source = schemas[from.versionIdentifier]!
            destination = schemas[to.versionIdentifier]!
            willMigrate = nil
            didMigrate = nil
        case .custom(let from, let to, let will, let did):
            kind = .custom
            source = schemas[from.versionIdentifier]!
            destination = schemas[to.versionIdentifier]!
            willMigrate = will
            didMigrate = did
        }
    }

    init(inferredFrom source: Schema, to destination: Schema) {
        kind = .lightweight
        self.source = source
        self.destination = destination
        willMigrate = nil
        didMigrate = nil
    }
}

extension MigrationStage {
    var versions: (from: Schema.Version, to: Schema.Version) {
        switch self {
        case .lightweight(let from, let to), .custom(let from, let to, _, _): (from.versionIdentifier, to.versionIdentifier)
        }
    }
}
