import ArgumentParser
import Foundation
import OpenSwiftData

/// `openswiftdata-server migrate --store KIND:PATH [--dry-run]`: brings a store file to the
/// schema the server serves, as starting the server would, and prints the stages it ran; with
/// `--dry-run`, prints the stages it would run and changes nothing.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store file to the schema the server serves, printing the stages.",
        discussion: "The server migrates its store when it starts; this does it beforehand, or with --dry-run only says what it would do.")

    @Option(help: ArgumentHelp("sqlite:PATH (the default store), json:PATH or postgres://user@host:port/database.", valueName: "kind:path"))
    var store: String

    @Flag(help: "Print the stages that would run, and change nothing.")
    var dryRun = false

    func run() throws {
        let location = try StoreLocation(store)
        let migrator = try SchemaMigrator(schema: StoreLocation.schema, plan: StoreLocation.plan, storeName: "trips")
        guard let stored = try location.storedSchema() else {
            print("The store \(location.redacted) keeps no schema record (it was written before stores kept one), so no stage can run; "
                + "opening it \(dryRun ? "would record" : "recorded") it as schema version \(migrator.currentVersion) as it is.")
            if !dryRun { _ = try location.container() }
            return
        }
        let steps = try migrator.steps(from: stored)
        guard !steps.isEmpty else {
            print("The store \(location.redacted) is at schema version \(stored.version), the current one: there is nothing to migrate.")
            return
        }
        if !dryRun { _ = try location.container() }
        let count = steps.count == 1 ? "1 stage" : "\(steps.count) stages"
        print("The store \(location.redacted) \(dryRun ? "is" : "was") at schema version \(stored.version); "
            + "\(dryRun ? "migrating it to \(migrator.currentVersion) would run" : "migrating it to \(migrator.currentVersion) ran") \(count):")
        for (number, step) in steps.enumerated() { print("  \(number + 1). \(step)") }
        print(dryRun ? "Nothing was changed (--dry-run)." : "The store is at schema version \(migrator.currentVersion).")
    }
}
