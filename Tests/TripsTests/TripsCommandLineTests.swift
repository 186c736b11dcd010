import Foundation
import Testing

/// The command line itself: help, version, unknown subcommands, and which `--store` paths open.
@Suite struct TripsCommandLineTests {
    func trips(_ arguments: String...) throws -> (status: Int32, output: String) {
        try TripsRunner.execute(arguments) { $0["LC_ALL"] = "C" }
    }

    @Test func topLevelHelpListsTheStoreOptions() throws {
        let help = try trips("--help")
        #expect(help.status == 0)
        #expect(help.output.contains("  --store <path>    A store file (`trips add` may create one), or postgres://…\n"))
        #expect(help.output.contains("  --remote <url>    The URL of an openswiftdata-server to use instead.\n"))
        #expect(help.output.contains("  --token <token>   The server's bearer token (default: $OPENSWIFTDATA_TOKEN).\n"))
        #expect(help.output.contains("  --allow-insecure-http Allow --remote http:// to another machine.\n"))
        #expect(help.output.contains("SUBCOMMANDS:"))
    }

    @Test func versionPrintsThePackageVersion() throws {
        #expect(try trips("--version") == (0, "0.1.0\n"))
    }

    @Test func anUnknownSubcommandIsNamedAsSuch() throws {
        let result = try trips("lsit")
        #expect(result.status == 64)
        #expect(result.output.hasPrefix("Error: Unknown subcommand 'lsit'. The subcommands are add, bucket, delete, edit, list, show, stay, sync; see `trips --help`.\n"))
        #expect(!result.output.contains("--destination"), "not the usage of `list`")
    }

    @Test func aStorePathThatDoesNotExistIsRefusedAndNotCreated() throws {
        let runner = try TripsRunner()
        let mistyped = runner.store.deletingLastPathComponent().appendingPathComponent("trip.store")
        let listed = try trips("list", "--store", mistyped.path)
        #expect(listed.status == 1)
        #expect(listed.output == "Error: There is no store at \(mistyped.path); check the path. `trips add … --store \(mistyped.path)` creates a new store there.\n")
        #expect(!FileManager.default.fileExists(atPath: mistyped.path))

        let nowhere = runner.store.deletingLastPathComponent().appendingPathComponent("no-such-dir/trips.store")
        let added = try trips("add", "Paris", "--destination", "France", "--start", "2026-05-01", "--store", nowhere.path)
        #expect(added.status == 1)
        #expect(added.output == "Error: The directory \(nowhere.deletingLastPathComponent().path) does not exist; check the --store path, or create the directory first.\n")
        #expect(!FileManager.default.fileExists(atPath: nowhere.deletingLastPathComponent().path))

        let directory = try trips("list", "--store", runner.store.deletingLastPathComponent().path)
        #expect(directory.output == "Error: --store \(runner.store.deletingLastPathComponent().path) is a directory; name a store file.\n")
    }

    @Test func addCreatesAStoreInAnExistingDirectoryThatOtherCommandsThenOpen() throws {
        let runner = try TripsRunner()
        #expect(try runner.run("add", "Paris", "--destination", "France", "--start", "2026-05-01").status == 0)
        #expect(FileManager.default.fileExists(atPath: runner.store.path))
        #expect(try runner.run("show", "1").status == 0)
    }
}
