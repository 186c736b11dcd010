import ArgumentParser
import Foundation
import JSONStore
import OpenSwiftData
import SampleTrips

/// The store a `--store` setting names (`sqlite:PATH`, `json:PATH` or `memory`), served with the
/// trips schema at its current version and migrated there with ``TripsMigrationPlan``.
struct StoreLocation {
    enum Kind { case sqlite, json, memory }

    /// The schema the server serves.
    static let schema = Schema(versionedSchema: TripsSchemaV2.self)
    /// How stores written with earlier trips schemas reach ``schema``.
    static let plan: any SchemaMigrationPlan.Type = TripsMigrationPlan.self

    let kind: Kind
    let url: URL?
    /// The setting as given, for messages.
    let text: String

    init(_ text: String) throws {
        self.text = text
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("sqlite", 2): (kind, url) = (.sqlite, URL(fileURLWithPath: parts[1]))
        case ("json", 2): (kind, url) = (.json, URL(fileURLWithPath: parts[1]))
        case ("memory", 1): (kind, url) = (.memory, nil)
        default: throw ValidationError("--store must be sqlite:PATH, json:PATH or memory (got '\(text)').")
        }
    }

    var configuration: any DataStoreConfiguration {
        switch (kind, url) {
        case (.sqlite, let url?): ModelConfiguration(url: url)
        case (.json, let url?): JSONStoreConfiguration(name: "trips", url: url)
        default: ModelConfiguration(isStoredInMemoryOnly: true)
        }
    }

    /// A container over the store, migrated to ``schema`` as it opens.
    func container() throws -> ModelContainer {
        try ModelContainer(for: Self.schema, migrationPlan: Self.plan, configurations: [configuration])
    }

    /// The record the store file keeps, read without opening it; `nil` for a file with none.
    func storedSchema() throws -> StoredSchema? {
        switch (kind, url) {
        case (.sqlite, let url?): try DefaultStore.storedSchema(at: url)
        case (.json, let url?): try JSONStore.storedSchema(at: url)
        default: throw ValidationError("An in-memory store has nothing to migrate; name a file with sqlite:PATH or json:PATH.")
        }
    }
}
