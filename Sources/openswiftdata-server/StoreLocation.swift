import ArgumentParser
import Foundation
import JSONStore
import OpenSwiftData
import PostgresStore
import SampleTrips

/// The store a `--store` setting names (`sqlite:PATH`, `json:PATH`, `memory` or a `postgres://`
/// URL), served with the
/// trips schema at its current version and migrated there with ``TripsMigrationPlan``.
struct StoreLocation {
    enum Kind { case sqlite, json, memory, postgres }

    /// The schema the server serves.
    static let schema = Schema(versionedSchema: TripsSchemaV2.self)
    /// How stores written with earlier trips schemas reach ``schema``.
    static var plan: any SchemaMigrationPlan.Type { TripsMigrationPlan.self }

    let kind: Kind
    let url: URL?
    /// The setting as given, for messages.
    let text: String

    init(_ text: String) throws {
        self.text = text
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            (kind, url) = (.postgres, nil)
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("sqlite", 2): (kind, url) = (.sqlite, URL(fileURLWithPath: parts[1]))
        case ("json", 2): (kind, url) = (.json, URL(fileURLWithPath: parts[1]))
        case ("memory", 1): (kind, url) = (.memory, nil)
        default: throw ValidationError("--store must be sqlite:PATH, json:PATH, memory or postgres://user@host:port/database (got '\(text)').")
        }
    }

    /// The setting with a URL's password replaced, for logs and messages.
    var redacted: String {
        guard kind == .postgres, var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "…"
        return components.string ?? "a PostgreSQL URL"
    }

    /// The store's configuration; a PostgreSQL store waits on the database at most `timeout` at
    /// each step, so no request outlasts the server's time limit for long.
    func configuration(timeout: Duration) throws -> any DataStoreConfiguration {
        switch (kind, url) {
        case (.sqlite, let url?): return ModelConfiguration(url: url)
        case (.json, let url?): return JSONStoreConfiguration(name: "trips", url: url, keepsHistory: true)
        case (.postgres, _):
            var configuration = try PostgresStoreConfiguration(name: "trips", url: text)
            configuration.timeout = timeout
            return configuration
        default: return ModelConfiguration(isStoredInMemoryOnly: true)
        }
    }

    /// A container over the store, migrated to ``schema`` as it opens.
    func container(timeout: Duration = .seconds(30)) throws -> ModelContainer {
        try ModelContainer(for: Self.schema, migrationPlan: Self.plan, configurations: [configuration(timeout: timeout)])
    }

    /// The record the store file keeps, read without opening it; `nil` for a file with none.
    func storedSchema() throws -> StoredSchema? {
        switch (kind, url) {
        case (.sqlite, let url?): try DefaultStore.storedSchema(at: url)
        case (.json, let url?): try JSONStore.storedSchema(at: url)
        case (.postgres, _): try PostgresStore.storedSchema(try PostgresStoreConfiguration(name: "trips", url: text))
        default: throw ValidationError("An in-memory store has nothing to migrate; name a store with sqlite:PATH, json:PATH or postgres://….")
        }
    }
}
