import Foundation
import JSONStore
import Logging
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// The token every test server accepts.
let testToken = "test-token-1"

/// The store a test server serves.
enum ServedStoreKind: String, CaseIterable, CustomTestStringConvertible {
    /// The default store, a SQLite file.
    case sqlite
    /// A `JSONStore` file.
    case json

    var testDescription: String { rawValue }

    func configuration(schema: Schema, directory: URL) -> any DataStoreConfiguration {
        switch self {
        case .sqlite: ModelConfiguration(schema: schema, url: directory.appendingPathComponent("server.store"))
        case .json: JSONStoreConfiguration(name: "server", schema: schema, url: directory.appendingPathComponent("server.json"))
        }
    }
}

/// A store server over a store file in `directory` (the default store unless `store` says
/// otherwise), on a free port unless one is given, over TLS when given a certificate; ``testToken``
/// has every scope.
func startServer(schema: Schema, directory: URL, store: ServedStoreKind = .sqlite, port: Int = 0,
                 tokens: [String: Set<StoreServerConfiguration.Scope>] = [testToken: Set(StoreServerConfiguration.Scope.allCases)],
                 maxBodySize: Int = 1 << 20, maxJSONDepth: Int = 32, timeLimit: Duration = .seconds(10),
                 bodyTimeLimit: Duration = .seconds(60), tls: StoreServerConfiguration.TLS? = nil,
                 allowedOrigins: [String] = []) throws -> RunningStoreServer {
    let container = try ModelContainer(for: schema, configurations: [store.configuration(schema: schema, directory: directory)])
    var configuration = try StoreServerConfiguration(
        host: "127.0.0.1", port: port, tokens: tokens, maxBodySize: maxBodySize, maxJSONDepth: maxJSONDepth,
        requestTimeLimit: timeLimit, bodyTimeLimit: bodyTimeLimit)
    configuration.tls = tls
    configuration.allowedOrigins = allowedOrigins
    return try StoreServer(container: container, configuration: configuration, logger: quietLogger).start()
}

/// A container whose one store is a RemoteStore talking to `url`.
func remoteContainer(schema: Schema, url: URL, token: String = testToken, timeout: Duration = .seconds(10),
                     attempts: Int = 3) throws -> ModelContainer {
    try ModelContainer(for: schema, configurations: [
        RemoteStoreConfiguration(name: "remote", schema: schema, url: url, token: token, timeout: timeout, attempts: attempts),
    ])
}

/// A fresh directory for a test server's store; the suite removes it with `stopInBackground(_:removing:)`.
func makeDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("RemoteStoreTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Test servers log only what would be a real problem.
let quietLogger: Logger = {
    var logger = Logger(label: "test.server")
    logger.logLevel = .critical
    return logger
}()

/// Stops a test's server without making the test wait for its clients' idle connections, then removes
/// its directory (every run would otherwise leave one store per suite behind in the temporary directory).
func stopInBackground(_ server: RunningStoreServer, removing directory: URL) {
    Thread.detachNewThread {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
