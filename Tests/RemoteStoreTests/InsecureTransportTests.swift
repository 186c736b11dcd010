import Foundation
import OpenSwiftData
import RemoteStore
import Testing

/// A `RemoteStore` sends its bearer token over plain `http://` only to this machine, unless the
/// configuration allows it explicitly: anyone on the path to another host could read the token.
@Suite struct InsecureTransportTests {
    func configuration(_ url: String, allowsInsecureHTTP: Bool = false) -> RemoteStoreConfiguration {
        RemoteStoreConfiguration(name: "remote", schema: notesSchema, url: URL(string: url)!, token: testToken,
                                 allowsInsecureHTTP: allowsInsecureHTTP)
    }

    @Test(arguments: ["http://192.0.2.1:8080", "http://example.com", "http://10.0.0.1", "http://128.0.0.1",
                      "http://127.0.0.1.example.com", "http://localhost.example.com"])
    func aPlainHTTPURLToAnotherMachineIsRefusedBeforeAnythingIsSent(_ url: String) throws {
        let error = #expect(throws: RemoteStoreError.self) {
            try ModelContainer(for: notesSchema, configurations: [configuration(url)])
        }
        #expect(error?.code == .insecureTransport)
        let host = try #require(URL(string: url)?.host)
        #expect(error?.message == "The remote store would send its bearer token unencrypted, over http://, to \(host), which is not this machine. Reach the server over https:// (a TLS proxy in front of openswiftdata-server), or pass allowsInsecureHTTP: true on a network you trust.")
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:9", "http://LOCALHOST",
                      "http://api.localhost", "http://[::1]:8080"])
    func plainHTTPToThisMachineNeedsNoPermission(_ url: String) throws {
        try configuration(url).validate()
    }

    @Test func plainHTTPToAnotherMachineIsAllowedWhenTheConfigurationSaysSo() throws {
        try configuration("http://192.0.2.1:8080", allowsInsecureHTTP: true).validate()
    }

    @Test func httpsToAnotherMachineNeedsNoPermission() throws {
        try configuration("https://data.example.com").validate()
    }
}
