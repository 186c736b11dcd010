import Foundation
import Testing

/// `--budget` takes an amount of money written in decimal: digits and at most two after a point,
/// not negative (refused by name rather than read as an unknown flag), kept in exact cents.
@Suite struct BudgetOptionTests {
    @Test(arguments: ["nan", "inf", "-inf", "Infinity"])
    func aNonFiniteBudgetIsRefusedAndNothingIsAdded(budget: String) throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", budget)
        #expect(added.status == 64)
        #expect(added.output.hasPrefix("Error: --budget must be an amount written in decimal, such as 1200 or 99.50 (got '\(budget)', which is not a finite number).\n"))
        // Refused before the store is opened: `trips add` did not even create it.
        #expect(!FileManager.default.fileExists(atPath: trips.store.path))
    }

    @Test(arguments: ["0x10", "1e3", "1e309", "1_000", "1,200", "+5", ".5", "5.", "12abc", "", " 5", "٣"])
    func aBudgetNotWrittenInDecimalIsRefusedSayingWhatIsTaken(budget: String) throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", budget)
        #expect(added.status == 64)
        #expect(added.output.hasPrefix("Error: --budget must be an amount written in decimal, such as 1200 or 99.50 (got '\(budget)').\n"))
        #expect(!FileManager.default.fileExists(atPath: trips.store.path))
    }

    @Test func aBudgetIsKeptInExactCentsAndFinerAmountsOrHugeOnesAreRefused() throws {
        let trips = try TripsRunner()
        #expect(try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "0.29").status == 0)
        #expect(try trips.run("add", "Rome", "--destination", "Italy", "--start", "2026-08-01", "--budget", "001000000000000.00").status == 0)
        let listed = try trips.run("list", "--json")
        #expect(listed.output.contains(#""budget" : 0.29,"#))
        #expect(listed.output.contains(#""budget" : 1000000000000,"#))
        let fine = try trips.run("edit", "Oslo", "--budget", "0.005")
        #expect(fine.status == 64)
        #expect(fine.output.hasPrefix("Error: --budget takes at most two digits after the point, for cents (got 0.005).\n"))
        let huge = try trips.run("edit", "Oslo", "--budget", "1000000000000.01")
        #expect(huge.output.hasPrefix("Error: --budget must be at most 1000000000000 (got 1000000000000.01).\n"))
        let longer = try trips.run("edit", "Oslo", "--budget", "99999999999999999999999")
        #expect(longer.output.hasPrefix("Error: --budget must be at most 1000000000000 (got 99999999999999999999999).\n"))
    }

    @Test func aNegativeBudgetIsRefusedByName() throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "-1")
        #expect(added.status == 64)
        #expect(added.output.hasPrefix("Error: --budget must not be negative (got -1).\n"))
    }

    @Test func editingRefusesABadBudgetAndKeepsTheOldOne() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--budget", "800")
        let edited = try trips.run("edit", "Oslo", "--budget", "0x10")
        #expect(edited.status == 64)
        #expect(edited.output.hasPrefix("Error: --budget must be an amount written in decimal, such as 1200 or 99.50 (got '0x10').\n"))
        #expect(try trips.run("show", "Oslo").output.contains("Budget       800.00"))
    }
}
