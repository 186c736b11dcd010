import ArgumentParser
import Foundation
import OpenSwiftData
import SampleTrips

@main
struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract: "Plan trips, stored with OpenSwiftData (SQLite by default).",
        discussion: """
            Trips are kept in \(ModelConfiguration.defaultDirectory.path)/default.store unless --store names \
            another file. Dates are written YYYY-MM-DD.
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Bucket.self, Stay.self],
        defaultSubcommand: List.self
    )
}

/// The options every subcommand takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file to use.", valueName: "path"))
    var store: String?

    /// A context over the chosen store. Keep it while using the models it returns: models hold
    /// their context weakly (as in SwiftData), and load relationships through it.
    func context() throws -> ModelContext {
        let configuration: ModelConfiguration
        if let store {
            configuration = ModelConfiguration(url: URL(fileURLWithPath: store))
        } else {
            configuration = ModelConfiguration()
        }
        return ModelContext(try ModelContainer(for: Schema(SampleTripsSchema.models), configurations: [configuration]))
    }
}
