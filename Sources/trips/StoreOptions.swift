import ArgumentParser
import Foundation
import OpenSwiftData
import PostgresStore
import RemoteStore
import SampleTrips

/// The options every subcommand takes.
///
/// A `--store` path must name an existing store file; only `trips add` creates a new one, and only
/// in a directory that exists. A mistyped path then fails with a message instead of quietly
/// opening an empty store.
struct StoreOptions: ParsableArguments {
    static let storeHelp = "A store file (`trips add` may create one), or postgres://…"
    static let remoteHelp = "The URL of an openswiftdata-server to use instead."
    static let tokenHelp = "The server's bearer token (default: $OPENSWIFTDATA_TOKEN)."

    @Option(name: .long, help: ArgumentHelp(storeHelp, valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(remoteHelp, valueName: "url"))
    var remote: String?

    @Option(name: .long, help: ArgumentHelp(tokenHelp, valueName: "token"))
    var token: String?

    static let insecureHelp = "Allow --remote http:// to another machine (the token travels unencrypted)."

    @Flag(name: .customLong("allow-insecure-http"), help: ArgumentHelp(insecureHelp))
    var allowsInsecureHTTP = false

    static let authorityHelp = "A CA certificate (PEM) to trust for --remote https://, besides the system's."

    @Option(name: .customLong("ca-certificate"), help: ArgumentHelp(authorityHelp, valueName: "path"))
    var authority: String?

    /// The options as the top-level help lists them (each line fits 80 columns, where the help
    /// wraps when piped).
    static let summary = [("--store <path>", storeHelp), ("--remote <url>", remoteHelp), ("--token <token>", tokenHelp),
                          ("--allow-insecure-http", "Allow --remote http:// to another machine."),
                          ("--ca-certificate <path>", "Trust this CA (PEM) for --remote https://.")]
        .map { "  " + $0.padding(toLength: max(18, $0.count + 1), withPad: " ", startingAt: 0) + $1 }
        .joined(separator: "\n")

    /// How long `--remote` waits for a connection: a server that is down fails in seconds.
    static let connectTimeout = Duration.seconds(1)

    /// The store options given before the subcommand, moved after it (ahead of any `--`).
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        let names: Set<String> = ["--store", "--remote", "--token", "--ca-certificate"]
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--allow-insecure-http" {
                leading.append(first)
                rest = rest.dropFirst()
            } else if names.contains(first), rest.count >= 2 {
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
        if remote == nil, allowsInsecureHTTP {
            throw ValidationError("--allow-insecure-http only applies with --remote.")
        }
        if remote == nil, authority != nil {
            throw ValidationError("--ca-certificate only applies with --remote https://.")
        }
        if let remote {
            try Self.checkTransport(remote, allowsInsecureHTTP: allowsInsecureHTTP)
        }
    }

    /// A context over the chosen store; `creatingStore` lets a `--store` path that does not exist
    /// yet become a new store. A local store written by an earlier `trips` is migrated to the
    /// current schema as it opens (``TripsMigrationPlan``). Keep the context while using the models it returns: models hold
    /// their context weakly (as in SwiftData), and load relationships through it.
    func context(creatingStore: Bool = false) throws -> ModelContext {
        let schema = Schema(versionedSchema: TripsSchemaV2.self)
        if let remote {
            guard let url = URL(string: remote), url.scheme != nil else {
                throw ValidationError("--remote must be a URL such as http://127.0.0.1:8080 (got '\(remote)').")
            }
            guard let token = token ?? ProcessInfo.processInfo.environment["OPENSWIFTDATA_TOKEN"], !token.isEmpty else {
                throw ValidationError("--remote needs the server's token: pass --token or set OPENSWIFTDATA_TOKEN.")
            }
            let configuration = RemoteStoreConfiguration(name: "trips", url: url, token: token, timeout: .seconds(15),
                                                         connectTimeout: Self.connectTimeout, allowsInsecureHTTP: allowsInsecureHTTP,
                                                         additionalRootCertificates: authority.map { URL(fileURLWithPath: $0) })
            return ModelContext(try ModelContainer(for: schema, configurations: [configuration]))
        }
        guard let store else {
            return ModelContext(try ModelContainer(for: schema, configurations: [ModelConfiguration()]))
        }
        if store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") {
            return ModelContext(try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(name: "trips", url: store)]))
        }
        let url = URL(fileURLWithPath: store)
        try Self.checkStorePath(url, creating: creatingStore)
        return ModelContext(try ModelContainer(for: schema, migrationPlan: TripsMigrationPlan.self,
                                               configurations: [ModelConfiguration(url: url)]))
    }

    /// Refuses a `--remote` URL that would carry the token over plain `http://` to another machine,
    /// saying the two ways on; `RemoteStoreConfiguration` refuses it too, in the API's words.
    static func checkTransport(_ remote: String, allowsInsecureHTTP: Bool) throws {
        guard !allowsInsecureHTTP, let url = URL(string: remote), let host = RemoteStoreConfiguration.insecureHost(of: url) else { return }
        throw ValidationError("--remote http:// to \(host) would send the token unencrypted to another machine. Use https://, or pass --allow-insecure-http on a network you trust.")
    }

    static func checkStorePath(_ url: URL, creating: Bool) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw TripsError("--store \(url.path) is a directory; name a store file.") }
            return
        }
        guard creating else {
            throw TripsError("There is no store at \(url.path); check the path. `trips add … --store \(url.path)` creates a new store there.")
        }
        let directory = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TripsError("The directory \(directory.path) does not exist; check the --store path, or create the directory first.")
        }
    }
}
