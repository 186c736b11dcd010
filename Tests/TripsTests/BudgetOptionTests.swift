import Foundation
import Testing

/// `--budget` takes an amount of money: finite, not negative, and a negative one is refused by
/// name rather than read as an unknown flag.
@Suite struct BudgetOptionTests {
    @Test(arguments: ["nan", "inf", "-inf", "1e309"])
    func aNonFiniteBudgetIsRefusedAndNothingIsAdded(budget: String) throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", budget)
        #expect(added.status != 0)
        #expect(added.output.contains("--budget must be an amount such as 1200 or 99.50 (got"))
        #expect(added.output.contains("which is not a finite number)."))
        // Refused before the store is opened: `trips add` did not even create it.
        #expect(!FileManager.default.fileExists(atPath: trips.store.path))
    }

    @Test func aNegativeBudgetIsRefusedByName() throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "-1")
        #expect(added.status != 0)
        #expect(added.output.contains("Error: --budget must not be negative (got -1.0)."))
        #expect(!added.output.contains("Missing value"))
    }

    @Test func editingRefusesANonFiniteBudgetAndKeepsTheOldOne() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "800")
        let edited = try trips.run("edit", "Oslo", "--budget", "nan")
        #expect(edited.status != 0)
        #expect(edited.output.contains("--budget must be an amount such as 1200 or 99.50 (got nan, which is not a finite number)."))
        #expect(try trips.run("show", "Oslo").output.contains("Budget       800.00"))
    }
}
