import Foundation
import JSONStore
import OpenSwiftData
import SampleTrips
import Testing

/// `openswiftdata-server` migrates a store written with the first trips schema when it starts,
/// and `openswiftdata-server migrate` does it beforehand, or with `--dry-run` only says how.
/// In ``TripsMigrationTests``, serialized with its tests: both versions' model types share entity names.
extension TripsMigrationTests {
    /// The first trips release's plan: version 1 alone, so a JSON store keeps version 1's record.
    enum FirstReleasePlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self] }
        static var stages: [MigrationStage] { [] }
    }

    func migrate(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let server = TripsRunner.executable.deletingLastPathComponent().appendingPathComponent("openswiftdata-server")
        return try TripsRunner.execute(["migrate"] + arguments, executable: server) { $0["LC_ALL"] = "C" }
    }

    @Test func aServerStartedOnAVersion1StoreMigratesItAndServesTheBudgetsInCents() throws {
        let trips = try TripsRunner()
        try TripsMigrationTests.writeVersion1Store(at: trips.store, budgets: [("Paris", 1200.5)])
        let server = try RemoteTripsTests.ServerProcess(store: trips.store, token: "t")
        defer { _ = server.terminate() }
        let listed = try TripsRunner.execute(["--remote", server.url, "--token", "t", "list", "--json"]) { $0["LC_ALL"] = "C" }
        #expect(listed.status == 0)
        #expect(listed.output.contains(#""budget" : 1200.5,"#))
        #expect(try DefaultStore.storedSchema(at: trips.store)?.version == Schema.Version(2, 0, 0))
    }

    @Test(arguments: ["sqlite", "json"])
    func migrateDryRunPrintsTheStagesAndChangesNothingThenMigrateRunsThem(kind: String) throws {
        let trips = try TripsRunner()
        let url = kind == "sqlite" ? trips.store : trips.store.deletingPathExtension().appendingPathExtension("json")
        if kind == "sqlite" {
            try TripsMigrationTests.writeVersion1Store(at: url, budgets: [("Paris", 1200)])
        } else {
            let configuration = JSONStoreConfiguration(name: "trips", url: url)
            let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchemaV1.self), migrationPlan: FirstReleasePlan.self,
                                                          configurations: [configuration]))
            let start = TripsMigrationTests.day("2026-05-01")
            context.insert(TripsSchemaV1.Trip(name: "Paris", destination: "France", startDate: start, endDate: start, budget: 1200))
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let dryRun = try migrate(["--store", "\(kind):\(url.path)", "--dry-run"])
        #expect(dryRun.status == 0)
        #expect(dryRun.output == """
            The store \(kind):\(url.path) is at schema version 1.0.0; migrating it to 2.0.0 would run 1 stage:
              1. custom 1.0.0 → 2.0.0
            Nothing was changed (--dry-run).

            """)
        #expect(try Data(contentsOf: url) == before)

        let ran = try migrate(["--store", "\(kind):\(url.path)"])
        #expect(ran.status == 0)
        #expect(ran.output.hasSuffix("""
            The store \(kind):\(url.path) was at schema version 1.0.0; migrating it to 2.0.0 ran 1 stage:
              1. custom 1.0.0 → 2.0.0
            The store is at schema version 2.0.0.

            """))
        let again = try migrate(["--store", "\(kind):\(url.path)", "--dry-run"])
        #expect(again.output == "The store \(kind):\(url.path) is at schema version 2.0.0, the current one: there is nothing to migrate.\n")
        let configuration: any DataStoreConfiguration = kind == "sqlite" ? ModelConfiguration(url: url) : JSONStoreConfiguration(name: "trips", url: url)
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchemaV2.self), migrationPlan: TripsMigrationPlan.self,
                                                      configurations: [configuration]))
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.budgetCents) == [120_000])
    }

    @Test func migrateNamesAStoreThatIsNotThere() throws {
        let result = try migrate(["--store", "sqlite:/nonexistent/trips.store", "--dry-run"])
        #expect(result.status == 1)
        #expect(result.output.contains("There is no store file at /nonexistent/trips.store; check the path."))
    }
}
