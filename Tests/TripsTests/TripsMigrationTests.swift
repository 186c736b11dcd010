import Foundation
import OpenSwiftData
import SampleTrips
import Testing

/// A store written by an earlier `trips` (schema version 1, budgets as `Double`) opens in the
/// current one, which migrates it to version 2 (budgets in cents) through its custom stage.
///
/// Serialized: the version 1 and version 2 model types share entity names, which resolve
/// process-wide to one version at a time.
@Suite(.serialized) struct TripsMigrationTests {
    static func day(_ text: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = text.split(separator: "-").map { Int($0)! }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }

    /// Writes a version 1 store as the first `trips` releases did: no migration plan, so it
    /// records version 1.0.0.
    static func writeVersion1Store(at url: URL, budgets: [(name: String, budget: Double)]) throws {
        let container = try ModelContainer(for: Schema(versionedSchema: TripsSchemaV1.self), configurations: [ModelConfiguration(url: url)])
        let context = ModelContext(container)
        for (offset, entry) in budgets.enumerated() {
            let start = day("2026-0\(offset + 4)-01")
            let trip = TripsSchemaV1.Trip(name: entry.name, destination: "France", startDate: start, endDate: start, budget: entry.budget)
            context.insert(trip)
            let item = TripsSchemaV1.BucketListItem(title: "Louvre", details: "Mona Lisa", hasReservation: true)
            context.insert(item)
            item.trip = trip
        }
        try context.save()
    }

    @Test func aVersion1StoreIsMigratedByTheCLIKeepingEveryBudgetInCents() throws {
        let trips = try TripsRunner()
        try Self.writeVersion1Store(at: trips.store, budgets: [("Paris", 1200), ("Lyon", 99.99), ("Nice", 0.005)])

        // The process that migrates goes on to follow relationships through the new types.
        #expect(try trips.run("bucket", "list", "Lyon").output == "[ ] Louvre (R) — Mona Lisa\n")
        let listed = try trips.run("list", "--json")
        #expect(listed.status == 0)
        let budgets = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]
        #expect(budgets?.map { $0["name"] as? String } == ["Paris", "Lyon", "Nice"])
        #expect(budgets?.map { $0["budget"] as? Double } == [1200, 99.99, 0.01])

        let container = try ModelContainer(for: Schema(versionedSchema: TripsSchemaV2.self), migrationPlan: TripsMigrationPlan.self,
                                           configurations: [ModelConfiguration(url: trips.store)])
        let migrated = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(migrated.map(\.budgetCents) == [120_000, 9_999, 1])
    }

    @Test func aMigratedStoreTakesNewTripsAndIsNotMigratedAgain() throws {
        let trips = try TripsRunner()
        try Self.writeVersion1Store(at: trips.store, budgets: [("Paris", 1200)])
        #expect(try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "800.25").status == 0)
        #expect(try trips.run("edit", "Paris", "--budget", "1300").output == "Updated #1 Paris\n")
        let listed = try trips.run("list", "--sort", "budget")
        #expect(listed.output.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ").last!) } == ["800.25", "1300.00"])
    }

    @Test func aBudgetNoCentsCanHoldStopsTheMigrationAndLeavesTheStoreAsItWas() throws {
        let trips = try TripsRunner()
        try Self.writeVersion1Store(at: trips.store, budgets: [("Paris", 1200), ("Moon", 1e300)])
        let before = try Data(contentsOf: trips.store)
        let listed = try trips.run("list")
        #expect(listed.status == 1)
        #expect(listed.output.contains("The trip 'Moon' has a budget of 1e+300, which cannot be kept in cents."))
        #expect(try Data(contentsOf: trips.store) == before)
    }
}
