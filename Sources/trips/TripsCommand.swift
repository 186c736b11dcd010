import ArgumentParser
import Foundation
import OpenSwiftData
import RemoteStore
import SampleTrips

@main
struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract: "Plan trips, stored with OpenSwiftData (SQLite by default).",
        discussion: """
            Trips are kept in \(ModelConfiguration.defaultDirectory.path)/default.store unless --store names \
            another file, or --remote names an openswiftdata-server (token from --token or OPENSWIFTDATA_TOKEN). \
            Dates are written YYYY-MM-DD.
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Bucket.self, Stay.self],
        defaultSubcommand: List.self
    )

    /// `trips --remote URL --token T list` reads as `trips list --remote URL --token T`: the store
    /// options belong to every subcommand, and may come before it.
    static func main() {
        main(StoreOptions.movingLeadingOptions(Array(CommandLine.arguments.dropFirst())))
    }
}

/// The options every subcommand takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file to use.", valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Use the store of an openswiftdata-server instead of a file.", valueName: "url"))
    var remote: String?

    @Option(name: .long, help: ArgumentHelp("The server's bearer token (default: $OPENSWIFTDATA_TOKEN).", valueName: "token"))
    var token: String?

    /// The store options given before the subcommand, moved after it (ahead of any `--`).
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        let names: Set<String> = ["--store", "--remote", "--token"]
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if names.contains(first), rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if let name = first.split(separator: "=", maxSplits: 1).first, names.contains(String(name)), first.contains("=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var result = Array(rest)
        result.insert(contentsOf: leading, at: result.firstIndex(of: "--") ?? result.endIndex)
        return result
    }

    func validate() throws {
        if remote != nil, store != nil {
            throw ValidationError("Use either --store or --remote, not both.")
        }
        if remote == nil, token != nil {
            throw ValidationError("--token only applies with --remote.")
        }
    }

    /// A context over the chosen store. Keep it while using the models it returns: models hold
    /// their context weakly (as in SwiftData), and load relationships through it.
    func context() throws -> ModelContext {
        let schema = Schema(SampleTripsSchema.models)
        if let remote {
            guard let url = URL(string: remote), url.scheme != nil else {
                throw ValidationError("--remote must be a URL such as http://127.0.0.1:8080 (got '\(remote)').")
            }
            guard let token = token ?? ProcessInfo.processInfo.environment["OPENSWIFTDATA_TOKEN"], !token.isEmpty else {
                throw ValidationError("--remote needs the server's token: pass --token or set OPENSWIFTDATA_TOKEN.")
            }
            let configuration = RemoteStoreConfiguration(name: "trips", url: url, token: token, timeout: .seconds(15))
            return ModelContext(try ModelContainer(for: schema, configurations: [configuration]))
        }
        let configuration = store.map { ModelConfiguration(url: URL(fileURLWithPath: $0)) } ?? ModelConfiguration()
        return ModelContext(try ModelContainer(for: schema, configurations: [configuration]))
    }
}
