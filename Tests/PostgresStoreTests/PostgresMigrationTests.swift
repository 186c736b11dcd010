import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing

enum PGShelfV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [PGShelf.self] }

    @Model final class PGShelf {
        var label: String

        init(label: String) { self.label = label }
    }
}

enum PGShelfV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [PGShelf.self] }

    @Model final class PGShelf {
        var label: String
        var labelLength: Int = 0

        init(label: String) { self.label = label }
    }
}

/// V1 → V2 with a custom stage that counts its runs and fills `labelLength`.
enum PGShelfPlan: SchemaMigrationPlan {
    static let didMigrateRuns = Mutex(0)
    static var schemas: [any VersionedSchema.Type] { [PGShelfV1.self, PGShelfV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: PGShelfV1.self, toVersion: PGShelfV2.self, willMigrate: nil, didMigrate: { context in
            didMigrateRuns.withLock { $0 += 1 }
            for shelf in try context.fetch(FetchDescriptor<PGShelfV2.PGShelf>()) { shelf.labelLength = shelf.label.count }
            try context.save()
        })]
    }
}

@Suite struct PostgresMigrationTests {
    private func container(_ version: any VersionedSchema.Type, _ url: String) throws -> ModelContainer {
        let schema = Schema(versionedSchema: version)
        return try ModelContainer(for: schema, migrationPlan: PGShelfPlan.self,
                                  configurations: [try PostgresStoreConfiguration(schema: schema, url: url)])
    }

    @Test func storesOpeningADatabaseAtOnceMigrateItOnce() async throws {
        let url = try TestDatabase.makeDatabase()
        try await withBlockingWork {
            let context = ModelContext(try container(PGShelfV1.self, url))
            for label in ["Atlas", "Bo"] { context.insert(PGShelfV1.PGShelf(label: label)) }
            try context.save()
            let failures = Mutex<[String]>([])
            // Each store has connections of its own, as two processes would.
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    _ = try container(PGShelfV2.self, url)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(PGShelfPlan.didMigrateRuns.withLock { $0 } == 1)
            let shelves = try ModelContext(try container(PGShelfV2.self, url)).fetch(FetchDescriptor<PGShelfV2.PGShelf>(sortBy: [SortDescriptor(\.label)]))
            #expect(shelves.map(\.labelLength) == [5, 2])
        }
    }
}
