import Foundation
import Testing

/// How listings look: aligned by display width, JSON on request, colour only on a terminal.
@Suite struct TripsOutputTests {
    @Test func tablesAlignCJKAndEmojiNamesByDisplayWidth() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "東京", "--destination", "日本", "--start", "2026-04-01")
        _ = try trips.run("add", "Beach 🏖️", "--destination", "Côte d'Azur", "--start", "2026-05-01")
        _ = try trips.run("add", "Oslo", "--destination", "Norway", "--start", "2026-06-01")
        #expect(try trips.run("list").output == """
            #  Name      Destination  Start        End          Days  Budget
            -  --------  -----------  -----------  -----------  ----  ------
            1  東京      日本         Apr 1, 2026  Apr 1, 2026     1    0.00
            2  Beach 🏖️  Côte d'Azur  May 1, 2026  May 1, 2026     1    0.00
            3  Oslo      Norway       Jun 1, 2026  Jun 1, 2026     1    0.00

            """)
    }

    @Test func listShowAndBucketListPrintJSONOnRequest() throws {
        let trips = try TripsRunner()
                _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--end", "2026-05-03", "--budget", "99.5", "--notes", "Louvre")
        _ = try trips.run("bucket", "add", "Paris", "Louvre", "--details", "Mona Lisa", "--reserved")
        _ = try trips.run("stay", "Paris", "--place", "Hôtel du Louvre")
        #expect(try trips.run("list", "--json", "--destination", "Japan").output == "[\n\n]\n")
        #expect(try trips.run("list", "--json").output == """
            [
              {
                "budget" : 99.5,
                "days" : 3,
                "destination" : "France",
                "endDate" : "2026-05-03",
                "name" : "Paris",
                "notes" : "Louvre",
                "number" : 1,
                "startDate" : "2026-05-01"
              }
            ]

            """)
        #expect(try trips.run("show", "Paris", "--json").output == """
            {
              "bucketList" : [
                {
                  "details" : "Mona Lisa",
                  "hasReservation" : true,
                  "isInPlan" : false,
                  "title" : "Louvre"
                }
              ],
              "budget" : 99.5,
              "days" : 3,
              "destination" : "France",
              "endDate" : "2026-05-03",
              "name" : "Paris",
              "notes" : "Louvre",
              "number" : 1,
              "startDate" : "2026-05-01",
              "stay" : {
                "address" : "",
                "placeName" : "Hôtel du Louvre"
              }
            }

            """)
        #expect(try trips.run("bucket", "list", "Paris", "--json").output == """
            [
              {
                "details" : "Mona Lisa",
                "hasReservation" : true,
                "isInPlan" : false,
                "title" : "Louvre"
              }
            ]

            """)
    }

    @Test func headersAreBoldOnATerminalUnlessNoColorIsSet() throws {
        let trips = try TripsRunner()
        _ = try trips.run("add", "Paris", "--destination", "France", "--start", "2026-05-01")
        let arguments = ["list", "--store", trips.store.path]
        let styled = try Self.onTerminal(arguments) { $0["LC_ALL"] = "C"; $0["TERM"] = "xterm"; $0.removeValue(forKey: "NO_COLOR") }
        #expect(styled.hasPrefix("\u{1B}[1m#  Name   Destination  Start       End         Days  Budget\u{1B}[0m\r\n\u{1B}[2m-  -----"))
        let plain = try Self.onTerminal(arguments) { $0["LC_ALL"] = "C"; $0["TERM"] = "xterm"; $0["NO_COLOR"] = "1" }
        #expect(plain.hasPrefix("#  Name   Destination  Start       End         Days  Budget\r\n-  -----"))
        #expect(!plain.contains("\u{1B}"))
        // Piped (as every other test runs it): no escapes either.
        #expect(!(try trips.run("list").output.contains("\u{1B}")))
    }

    /// Runs `trips` on a pseudo-terminal, through util-linux `script` (essential on Debian); what
    /// it wrote, with the terminal's `\r\n` line ends.
    static func onTerminal(_ arguments: [String], environment adjust: (inout [String: String]) -> Void) throws -> String {
        let command = ([TripsRunner.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command.joined(separator: " "), "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        adjust(&environment)
        process.environment = environment
        let pipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
