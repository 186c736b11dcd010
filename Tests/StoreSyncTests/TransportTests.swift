import Foundation
import OpenSwiftData
import StoreSync
import Testing

/// The sync engine sends its bearer token over plain `http://` only to this machine, unless the
/// configuration allows it explicitly, as RemoteStore does.
@Suite struct TransportTests {
    func engine(_ server: String, allowsInsecureHTTP: Bool = false) throws -> SyncEngine {
        let container = try ModelContainer(for: SyncTestSchema.schema, configurations: [InMemoryStoreConfiguration(schema: SyncTestSchema.schema)])
        var configuration = SyncConfiguration(server: URL(string: server)!, token: syncToken, models: SyncTestSchema.models)
        configuration.stateLocation = .inMemory
        configuration.allowsInsecureHTTP = allowsInsecureHTTP
        return try SyncEngine(container: container, configuration: configuration)
    }

    @Test(arguments: ["http://192.0.2.1:8080", "http://sync.example.com", "http://128.0.0.1", "http://127.0.0.1.example.com"])
    func plainHTTPToAnotherMachineIsRefused(_ server: String) throws {
        let error = #expect(throws: SyncError.self) { try engine(server) }
        let host = try #require(URL(string: server)?.host)
        #expect(error?.code == .insecureTransport)
        #expect(error?.isRetryable == false)
        #expect(error?.message == "The sync engine would send its bearer token unencrypted, over http://, to \(host), which is not this machine. Reach the server over https://, or set SyncConfiguration.allowsInsecureHTTP on a network you trust.")
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://127.9.9.9", "http://localhost:9", "http://app.localhost", "http://[::1]:8080"])
    func plainHTTPToThisMachineNeedsNoPermission(_ server: String) throws {
        _ = try engine(server)
    }

    @Test func plainHTTPToAnotherMachineIsAllowedWhenTheConfigurationSaysSo() throws {
        _ = try engine("http://192.0.2.1:8080", allowsInsecureHTTP: true)
    }

    @Test func httpsToAnotherMachineNeedsNoPermission() throws {
        _ = try engine("https://sync.example.com")
    }
}
