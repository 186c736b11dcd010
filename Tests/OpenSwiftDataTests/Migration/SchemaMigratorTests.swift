import Foundation
import OpenSwiftData
import Synchronization
import Testing

enum PlannedV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [PlannedBook.self] }

    @Model final class PlannedBook {
        var title: String
        init(title: String) { self.title = title }
    }
}

enum PlannedV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [PlannedBook.self] }

    @Model final class PlannedBook {
        @Attribute(originalName: "title") var name: String
        init(name: String) { self.name = name }
    }
}

enum PlannedV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [PlannedBook.self] }

    @Model final class PlannedBook {
        #Unique<PlannedBook>([\.name])
        @Attribute(originalName: "title") var name: String
        var pages: Int = 0
        init(name: String) { self.name = name }
    }
}

/// V1 → V2 custom; V2 has no stage leaving it, so V2 → V3 is inferred.
enum PlannedBooks: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PlannedV1.self, PlannedV2.self, PlannedV3.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: PlannedV1.self, toVersion: PlannedV2.self, willMigrate: nil, didMigrate: nil)]
    }
}

enum PlannedBooksBack: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PlannedV3.self, PlannedV1.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PlannedV3.self, toVersion: PlannedV1.self)] }
}

enum PlannedBooksTwice: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PlannedV1.self, PlannedV1.self] }
    static var stages: [MigrationStage] { [] }
}

enum PlannedBooksToItself: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PlannedV1.self, PlannedV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PlannedV2.self, toVersion: PlannedV2.self)] }
}

/// The stage finding of ``SchemaMigrator``, without a store. One at a time: every version's class
/// is named `PlannedBook`, and the entity name resolves to the version built last.
@Suite(.serialized) struct SchemaMigratorTests {
    private func migrator(_ plan: (any SchemaMigrationPlan.Type)?, at version: any VersionedSchema.Type = PlannedV3.self) throws -> SchemaMigrator {
        try SchemaMigrator(schema: Schema(versionedSchema: version), plan: plan, storeName: "books")
    }

    private func record(_ version: any VersionedSchema.Type) -> StoredSchema {
        StoredSchema(Schema(versionedSchema: version))
    }

    @Test func aStoreAtTheFirstVersionRunsEveryStageInOrderWithInferredOnesBetween() throws {
        let steps = try migrator(PlannedBooks.self).steps(from: record(PlannedV1.self))
        #expect(steps.map(\.description) == ["custom 1.0.0 → 2.0.0", "lightweight 2.0.0 → 3.0.0"])
    }

    @Test func aStoreAtTheCurrentVersionOrWithoutARecordRunsNothing() throws {
        let migrator = try migrator(PlannedBooks.self)
        #expect(try migrator.steps(from: record(PlannedV3.self)).isEmpty)
        #expect(try migrator.steps(from: nil).isEmpty)
        #expect(migrator.currentVersion == Schema.Version(3, 0, 0))
    }

    @Test func aRecordUnderAnotherVersionIsPlacedByItsShape() throws {
        // As a container without a plan records it: the schema's own (default) version.
        let unversioned = StoredSchema(Schema(versionedSchema: PlannedV2.self), version: Schema.Version(7, 0, 0))
        #expect(try migrator(PlannedBooks.self).steps(from: unversioned).map(\.description) == ["lightweight 2.0.0 → 3.0.0"])
    }

    @Test func aVersionThePlanDoesNotListIsUnknown() throws {
        let stranger = StoredSchema(version: Schema.Version(9, 0, 0), entities: ["PlannedBook": "0000000000000000"])
        #expect(throws: SwiftDataError.unknownDataStoreSchema) { try migrator(PlannedBooks.self).steps(from: stranger) }
    }

    @Test func aLaterVersionWithoutAStageBackIsABackwardMigration() throws {
        #expect(throws: SwiftDataError.backwardMigration) {
            try migrator(PlannedBooks.self, at: PlannedV2.self).steps(from: record(PlannedV3.self))
        }
    }

    @Test func aStageBackIsFollowed() throws {
        let steps = try migrator(PlannedBooksBack.self, at: PlannedV1.self).steps(from: record(PlannedV3.self))
        #expect(steps.map(\.description) == ["lightweight 3.0.0 → 1.0.0"])
    }

    /// Named, because a plan's metatype is not `Sendable` and so cannot be a test argument.
    enum ContradictoryPlan: CaseIterable, Sendable {
        case versionTwice
        case stageToItself

        var plan: any SchemaMigrationPlan.Type {
            switch self {
            case .versionTwice: PlannedBooksTwice.self
            case .stageToItself: PlannedBooksToItself.self
            }
        }
    }

    @Test(arguments: ContradictoryPlan.allCases)
    func aPlanThatContradictsItselfIsRefused(_ contradiction: ContradictoryPlan) {
        #expect(throws: SwiftDataError.loadIssueModelContainer) { try migrator(contradiction.plan) }
    }

    @Test func fingerprintsFollowTheStoredShapeNotTheOriginalName() {
        let v1 = record(PlannedV1.self).entities["PlannedBook"]
        let v2 = record(PlannedV2.self).entities["PlannedBook"]
        let v3 = record(PlannedV3.self).entities["PlannedBook"]
        #expect(Set([v1, v2, v3]).count == 3, "a rename, a constraint and an attribute each change the shape")
        #expect(record(PlannedV2.self).entities["PlannedBook"] == v2, "the same models give the same fingerprint")
        #expect(v1?.count == 16)
    }
}

/// A target that records what the migrator asks of it; custom stages get containers over an
/// `InMemoryStore` of the version asked for.
final class RecordingMigrationTarget: SchemaMigrationTarget {
    let stored: StoredSchema?
    private(set) var calls: [String] = []

    init(stored: StoredSchema?) { self.stored = stored }

    func storedSchema() throws -> StoredSchema? { stored }

    func applySchemaChange(to schema: Schema, recording record: StoredSchema) throws {
        calls.append("change to \(record.version)")
    }

    func migrationContainer(for schema: Schema) throws -> ModelContainer {
        calls.append("container at \(schema.version)")
        return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration(name: "migrating", schema: schema)])
    }
}

/// Records what its custom stage's closures saw.
enum TracedBooks: SchemaMigrationPlan {
    static let trace = Mutex<[String]>([])
    static var schemas: [any VersionedSchema.Type] { [PlannedV1.self, PlannedV2.self, PlannedV3.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: PlannedV1.self, toVersion: PlannedV2.self, willMigrate: { context in
            context.insert(PlannedV1.PlannedBook(title: "inserted by willMigrate"))
            trace.withLock { $0.append("willMigrate over \(context.container.schema.version)") }
        }, didMigrate: { context in
            let count = try context.fetchCount(FetchDescriptor<PlannedV2.PlannedBook>())
            trace.withLock { $0.append("didMigrate over \(context.container.schema.version), \(count) books") }
        })]
    }
}

extension SchemaMigratorTests {
    @Test func migrateRunsWillMigrateTheChangeAndDidMigrateInOrderThenRecordsTheCurrentSchema() throws {
        let target = RecordingMigrationTarget(stored: record(PlannedV1.self))
        let steps = try migrator(TracedBooks.self).migrate(target)
        #expect(steps.count == 2)
        #expect(target.calls == ["container at 1.0.0", "change to 2.0.0", "container at 2.0.0", "change to 3.0.0", "change to 3.0.0"])
        // Each container is a fresh in-memory store here, so didMigrate sees none of willMigrate's saves.
        #expect(TracedBooks.trace.withLock { $0 } == ["willMigrate over 1.0.0", "didMigrate over 2.0.0, 0 books"])
    }
}
