import DataStoreTesting
import Foundation
import OpenSwiftData
import Testing

/// The kit run against the core's stores.
@Suite struct BuiltInStoreConformanceTests {
    static let inMemoryStore = DataStoreConformance(capabilities: [.uniqueUpserts, .batchDelete, .erase]) { schema, _ in
        InMemoryStoreConfiguration(name: "conformance", schema: schema)
    }

    static let defaultStoreInMemory = DataStoreConformance(capabilities: [.uniqueUpserts, .batchDelete, .erase]) { schema, _ in
        ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
    }

    static let defaultStoreOnDisk = DataStoreConformance(capabilities: .all) { schema, location in
        ModelConfiguration(schema: schema, url: location.appendingPathComponent("default.store"))
    }

    @Test(arguments: DataStoreConformance.checks)
    func inMemoryStore(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.inMemoryStore)
    }

    @Test(arguments: DataStoreConformance.checks)
    func defaultStoreInMemory(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.defaultStoreInMemory)
    }

    @Test(arguments: DataStoreConformance.checks)
    func defaultStoreOnDisk(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.defaultStoreOnDisk)
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func inMemoryStoreMigration(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.inMemoryStore)
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func defaultStoreInMemoryMigration(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.defaultStoreInMemory)
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func defaultStoreOnDiskMigration(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.defaultStoreOnDisk)
    }
}
