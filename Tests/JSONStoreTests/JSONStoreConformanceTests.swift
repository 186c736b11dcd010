import DataStoreTesting
import Foundation
import JSONStore
import OpenSwiftData
import Testing

@Suite struct JSONStoreConformanceTests {
    static let kit = DataStoreConformance(capabilities: .all) { schema, location in
        JSONStoreConfiguration(name: "conformance", schema: schema, url: location.appendingPathComponent("store.json"))
    }

    /// Keeps history too, so the history checks run on the JSON store's history as well as on
    /// its refusal without one (``kit``).
    static let compactKit = DataStoreConformance(capabilities: .all) { schema, location in
        JSONStoreConfiguration(name: "conformance", schema: schema, url: location.appendingPathComponent("store.json"),
                               outputFormatting: .compact, dateEncoding: .secondsSince1970, keepsHistory: true)
    }

    @Test(arguments: DataStoreConformance.checks)
    func conformance(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.kit)
    }

    @Test(arguments: DataStoreConformance.checks)
    func conformanceWithCompactOutputAndNumericDates(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.compactKit)
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func migration(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.kit)
    }

    @Test(arguments: DataStoreConformance.migrationChecks)
    func migrationWithCompactOutputAndNumericDates(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.compactKit)
    }
}
