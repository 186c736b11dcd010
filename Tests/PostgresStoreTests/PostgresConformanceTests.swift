import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing

/// The conformance kit on PostgreSQL: each check gets a database of its own, named after the
/// check's directory, so that the containers a check opens share it and the checks run in parallel.
@Suite struct PostgresConformanceTests {
    static let kit = DataStoreConformance(capabilities: .all, storedContents: { location in
        try TestDatabase.dump(try database(for: location))
    }, makeConfiguration: { schema, location in
        try PostgresStoreConfiguration(name: "conformance", schema: schema, url: try database(for: location))
    })

    private static let databases = DatabaseNames()

    private static func database(for location: URL) throws -> String {
        try databases.url(for: location.lastPathComponent)
    }

    @Test(arguments: DataStoreConformance.checks)
    func conformance(_ check: DataStoreConformance.Check) async throws {
        try await withBlockingWork { try check.run(Self.kit) }
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func migration(_ check: DataStoreConformance.Check) async throws {
        try await withBlockingWork { try check.run(Self.kit) }
    }
}

/// One database per check directory, made the first time the directory is named.
final class DatabaseNames: Sendable {
    private let made = Mutex<[String: String]>([:])

    func url(for name: String) throws -> String {
        try made.withLock { made in
            if let url = made[name] { return url }
            let url = try TestDatabase.makeDatabase(name)
            made[name] = url
            return url
        }
    }
}
