import ArgumentParser
import Foundation
import OpenSwiftData
import SampleTrips

@main
struct TripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract: "Plan trips, stored with OpenSwiftData (SQLite by default).",
        discussion: """
            Trips are kept in \(ModelConfiguration.defaultDirectory.path)/default.store unless --store or \
            --remote names another store. Dates are written YYYY-MM-DD. Listings take --json.

            Exit status: 0 on success, 1 on an error, 75 when a change sent through --remote may \
            have been applied but its answer was lost (the message says how to check, and whether \
            the same command is safe to run again).

            STORE OPTIONS (every subcommand takes them, before or after its name):
            \(StoreOptions.summary)
            """,
        version: PackageVersion.current,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Bucket.self, Stay.self, Sync.self],
        defaultSubcommand: List.self
    )

    /// `trips --remote URL --token T list` reads as `trips list --remote URL --token T`: the store
    /// options belong to every subcommand, and may come before it. The default subcommand would
    /// take `--version` and a mistyped subcommand name as its own (wrong) arguments, so those are
    /// answered here. The root is asynchronous for `trips sync`; the other subcommands run as before.
    static func main() async {
        let arguments = StoreOptions.movingLeadingOptions(Array(CommandLine.arguments.dropFirst()))
        if arguments == ["--version"] {
            print(PackageVersion.current)
            return
        }
        let names = configuration.subcommands.map { $0._commandName }
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first), first != "help" {
            exit(withError: ValidationError(
                "Unknown subcommand '\(first)'. The subcommands are \(names.sorted().joined(separator: ", ")); see `trips --help`."))
        }
        await main(arguments)
    }
}
