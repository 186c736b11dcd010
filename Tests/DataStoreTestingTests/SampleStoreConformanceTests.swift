import DataStoreTesting
import Foundation
import OpenSwiftData
import Testing

/// The kit against the WWDC24 sample store: what the article "Writing a custom DataStore" starts from.
@Suite struct SampleStoreConformanceTests {
    static let sample = DataStoreConformance(capabilities: [.persistent]) { schema, location in
        SampleJSONStoreConfiguration(name: "conformance", schema: schema, fileURL: location.appendingPathComponent("store.json"))
    }

    static let broken = DataStoreConformance(capabilities: []) { schema, location in
        SampleJSONStoreConfiguration(name: "conformance", schema: schema, fileURL: location.appendingPathComponent("store.json"), dropsUpdates: true)
    }

    /// What the kit finds wrong with the sample store, by check.
    static let knownIssues = [
        "insertedModelsReadBackWithEveryValue": "its .iso8601 dates drop fractions of a second",
        "aReopenedContainerSeesEverythingSaved": "its .iso8601 dates drop fractions of a second",
    ]

    @Test(arguments: DataStoreConformance.checks)
    func theWWDCSampleStore(_ check: DataStoreConformance.Check) throws {
        if let issue = Self.knownIssues[check.name] {
            withKnownIssue(Comment(rawValue: issue)) { try check.run(Self.sample) }
        } else {
            try check.run(Self.sample)
        }
    }

    @Test func theKitCatchesAStoreThatDropsUpdates() throws {
        let check = try #require(DataStoreConformance.checks.first { $0.name == "updatesReplaceTheStoredValues" })
        withKnownIssue("the broken store ignores updates") {
            try check.run(Self.broken)
        }
    }
}
