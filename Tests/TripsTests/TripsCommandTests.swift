import Foundation
import Testing

/// Runs the built `trips` executable, each call in a new process, against a store file of its own.
struct TripsRunner {
    /// The runner's directory, removed with the last copy of the runner.
    private final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trips-tests-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private let scratch = Scratch()
    let store: URL
    var locale = "en_US.UTF-8"

    init() throws {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        store = scratch.url.appendingPathComponent("trips.store")
    }

    /// The `trips` binary beside the test bundle (`swift build --build-tests` builds it).
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("trips")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "trips")
    }

    func run(_ arguments: String...) throws -> (status: Int32, output: String) {
        try Self.execute(arguments + ["--store", store.path]) { [locale] in $0["LC_ALL"] = locale }
    }

    /// Runs the trips executable (or another one beside it) with this process's environment
    /// changed by `adjust`; its standard output and error together.
    static func execute(_ arguments: [String], executable: URL = TripsRunner.executable,
                        environment adjust: (inout [String: String]) -> Void) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        adjust(&environment)
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite struct TripsCommandTests {
    @Test func aTripAddedInOneProcessIsListedByTheNext() throws {
        let trips = try TripsRunner()
        let added = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--end", "2026-05-06", "--budget", "1200")
        #expect(added.status == 0)
        #expect(added.output == "Added #1 Paris (France, May 1, 2026)\n")
        _ = try trips.run("add", "Kyoto", "--destination", "Japan", "--start", "2026-04-01", "--end", "2026-04-10")
        let listed = try trips.run("list")
        #expect(listed.status == 0)
        #expect(listed.output == """
            #  Name   Destination  Start        End           Days   Budget
            -  -----  -----------  -----------  ------------  ----  -------
            2  Kyoto  Japan        Apr 1, 2026  Apr 10, 2026    10     0.00
            1  Paris  France       May 1, 2026  May 6, 2026      6  1200.00

            """)
    }

    @Test func listFiltersByDestinationAndDate() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        _ = try trips.run("add", "Lyon", "--destination", "France", "--start", "2026-08-01")
        _ = try trips.run("add", "Kyoto", "--destination", "Japan", "--start", "2026-06-01")
        let french = try trips.run("list", "--destination", "France", "--from", "2026-06-01")
        #expect(french.output.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ")[1] } == ["Lyon"])
        let byName = try trips.run("list", "--sort", "name", "--reverse")
        #expect(byName.output.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ")[1]) } == ["Paris", "Lyon", "Kyoto"])
    }

    @Test func listWithoutDateBoundsShowsTripsOfEveryYear() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Far", "--destination", "Mars", "--start", "4001-01-02")
        _ = try trips.run("add", "Farther", "--destination", "Mars", "--start", "9999-12-31")
        _ = try trips.run("add", "Early", "--destination", "Rome", "--start", "0001-01-01")
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        let names = { (output: String) in output.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " ")[1]) } }
        #expect(names(try trips.run("list").output) == ["Early", "Paris", "Far", "Farther"])
        #expect(names(try trips.run("list", "--destination", "Mars").output) == ["Far", "Farther"])
        #expect(names(try trips.run("list", "--from", "2027-01-01").output) == ["Far", "Farther"])
        #expect(names(try trips.run("list", "--to", "2026-12-31").output) == ["Early", "Paris"])
    }

    @Test func showEditAndDeleteATripByNameOrNumber() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--end", "2026-05-03")
        #expect(try trips.run("edit", "Paris", "--notes", "Louvre", "--budget", "99.5").output == "Updated #1 Paris\n")
        #expect(try trips.run("show", "1").output == """
            Trip         #1 Paris
            Destination  France
            Dates        May 1, 2026 – May 3, 2026 (3 days)
            Budget       99.50
            Notes        Louvre
            Stay         —
            Bucket list  —

            """)
        #expect(try trips.run("delete", "Paris").output == "Deleted #1 Paris\n")
        #expect(try trips.run("list").output == "No trips. Add one with `trips add NAME --destination PLACE --start YYYY-MM-DD`.\n")
    }

    @Test func datesFollowTheUsersLocaleAndPOSIXGetsISODates() throws {
        var trips = try TripsRunner()
        trips.locale = "de_DE.UTF-8"
        #expect(try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01").output == "Added #1 Paris (France, 01.05.2026)\n")
        trips.locale = "C.UTF-8"
        #expect(try trips.run("show", "Paris").output.contains("Dates        2026-05-01 – 2026-05-01 (1 day)"))
    }

    @Test func addingTheSameTripTwiceIsRefusedAndKeepsTheSavedTrip() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--end", "2026-05-03",
                          "--budget", "100", "--notes", "Louvre")
        let again = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--budget", "250")
        #expect(again.status == 1)
        #expect(again.output == "Error: #1 Paris already starts on May 1, 2026; nothing was added. Change it with `trips edit 1 …`, or give the new trip another name or start.\n")
        #expect(try trips.run("show", "1").output == """
            Trip         #1 Paris
            Destination  France
            Dates        May 1, 2026 – May 3, 2026 (3 days)
            Budget       100.00
            Notes        Louvre
            Stay         —
            Bucket list  —

            """)
    }

    @Test func bucketListItemsAndAStayBelongToTheirTripAndGoWithIt() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        #expect(try trips.run("bucket", "add", "Paris", "Louvre", "--details", "Mona Lisa", "--reserved").output ==
            "Added 'Louvre' to #1 Paris (1 on the list)\n")
        _ = try trips.run("bucket", "add", "1", "Eiffel Tower")
        #expect(try trips.run("bucket", "plan", "Paris", "Eiffel Tower").output == "Planned 'Eiffel Tower' on #1 Paris\n")
        #expect(try trips.run("stay", "Paris", "--place", "Hôtel du Louvre", "--address", "Place André Malraux").output ==
            "Staying at Hôtel du Louvre on #1 Paris\n")
        #expect(try trips.run("show", "Paris").output == """
            Trip         #1 Paris
            Destination  France
            Dates        May 1, 2026 – May 1, 2026 (1 day)
            Budget       0.00
            Notes        —
            Stay         Hôtel du Louvre, Place André Malraux
            Bucket list  2 items
                         [x] Eiffel Tower
                         [ ] Louvre (R) — Mona Lisa

            """)
        #expect(try trips.run("bucket", "remove", "Paris", "Louvre").output == "Removed 'Louvre' from #1 Paris\n")
        #expect(try trips.run("bucket", "list", "Paris").output == "[x] Eiffel Tower\n")
        _ = try trips.run("delete", "Paris")
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        #expect(try trips.run("bucket", "list", "Paris").output ==
            "#2 Paris has an empty bucket list. Add to it with `trips bucket add 2 TITLE`.\n")
        let missing = try trips.run("bucket", "plan", "Paris", "Louvre")
        #expect(missing.status == 1)
        #expect(missing.output == "Error: #2 Paris has no bucket-list item 'Louvre'. Run `trips bucket list 2` to see them.\n")
    }

    @Test func badInputGetsAClearErrorAndAFailingStatus() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        let unknown = try trips.run("show", "Atlantis")
        #expect(unknown.status == 1)
        #expect(unknown.output == "Error: No trip is named or numbered 'Atlantis'. Run `trips list` to see the trips and their numbers.\n")
        let badDate = try trips.run("add", "X", "--destination", "Y", "--start", "2026-02-30")
        #expect(badDate.status == 64)
        #expect(badDate.output.hasPrefix("Error: The value '2026-02-30' is invalid for '--start <YYYY-MM-DD>'"))
        let backwards = try trips.run("add", "X", "--destination", "Y", "--start", "2026-03-02", "--end", "2026-03-01")
        #expect(backwards.status == 64)
        #expect(backwards.output.hasPrefix("Error: --end must not be before --start."))
    }
}
