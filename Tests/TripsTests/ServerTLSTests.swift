import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TLSTestSupport

/// `openswiftdata-server` serving HTTPS (`--tls-certificate`, `--tls-key`) and browser origins
/// (`--cors-origin`), and `trips --remote https://… --ca-certificate` reaching it.
@Suite final class ServerTLSTests {
    let certificates: TestCertificates

    init() throws {
        certificates = try TestCertificates()
    }

    deinit {
        certificates.remove()
    }

    func trips(_ server: RemoteTripsTests.ServerProcess, _ arguments: [String], trusting: Bool = true) throws -> (status: Int32, output: String) {
        let authority = trusting ? ["--ca-certificate", certificates.authority] : []
        return try RemoteTripsTests().trips(["--remote", server.url, "--token", "tls-secret"] + authority + arguments)
    }

    @Test func theServerServesHTTPSFromItsConfigFileAndTripsReachesItTrustingTheCA() throws {
        let config = certificates.path("server.json")
        try Data(#"{"store": "memory", "port": 0, "tokens": ["tls-secret"], "tlsCertificate": "\#(certificates.certificate)", "tlsKey": "\#(certificates.key)"}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--config", config])
        defer { _ = server.terminate() }
        #expect(server.url.hasPrefix("https://127.0.0.1:"))

        #expect(try trips(server, ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"]).status == 0)
        let listed = try trips(server, ["list"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("Oslo"))
        let untrusted = try trips(server, ["list"], trusting: false)
        #expect(untrusted.status == 1)
        #expect(untrusted.output.contains("presented a TLS certificate this client does not trust"))
    }

    @Test func tripsSyncReachesAnHTTPSServerTrustingTheCAAndRefusesItOtherwise() throws {
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "tls-secret",
                                                                    "--tls-certificate", certificates.certificate, "--tls-key", certificates.key])
        defer { _ = server.terminate() }
        let store = certificates.path("local.store")
        let tripsTests = RemoteTripsTests()
        #expect(try tripsTests.trips(["--store", store, "add", "Bergen", "--destination", "Norway", "--start", "2026-08-01"]).status == 0)
        let sync = ["sync", "--store", store, "--remote", server.url, "--token", "tls-secret"]

        let untrusted = try tripsTests.trips(sync)
        #expect(untrusted.status == 1)
        #expect(untrusted.output.contains("untrustedServer: The server at \(server.url) presented a TLS certificate this client does not trust"))
        let synced = try tripsTests.trips(sync + ["--ca-certificate", certificates.authority])
        #expect(synced.status == 0)
        #expect(synced.output.hasPrefix("Pushed 1 change to \(server.url).\n"))
        let listed = try trips(server, ["list"])
        #expect(listed.output.contains("Bergen"))

        let plain = try tripsTests.trips(["sync", "--store", store, "--remote", "http://127.0.0.1:1", "--token", "t", "--ca-certificate", certificates.authority])
        #expect(plain.status != 0)
        #expect(plain.output.hasPrefix("Error: --ca-certificate only applies with --remote https://.\n"))
    }

    @Test func aKeyThatIsNotTheCertificatesStopsTheServerAtStartup() throws {
        let error = #expect(throws: RemoteTripsTests.ServerFailure.self) {
            try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "tls-secret",
                                                           "--tls-certificate", self.certificates.certificate, "--tls-key", self.certificates.otherKey])
        }
        #expect(error?.log.contains("The TLS private key in \(certificates.otherKey) does not belong to the certificate in \(certificates.certificate) (") == true)
    }

    @Test func aCertificateWithoutItsKeyIsAStartupError() throws {
        let error = #expect(throws: RemoteTripsTests.ServerFailure.self) {
            try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "tls-secret"],
                                               environment: ["OPENSWIFTDATA_TLS_CERTIFICATE": self.certificates.certificate])
        }
        #expect(error?.log.contains(#"A TLS certificate needs its private key: give --tls-key (OPENSWIFTDATA_TLS_KEY, "tlsKey" in the config file) with --tls-certificate."#) == true)
    }

    @Test func aCACertificateWithoutARemoteIsRefused() throws {
        let refused = try RemoteTripsTests().trips(["--ca-certificate", certificates.authority, "list"])
        #expect(refused.status != 0)
        #expect(refused.output.hasPrefix("Error: --ca-certificate only applies with --remote https://.\n"))
    }

    @Test func theEnvironmentsCORSOriginsAreAllowedAndNoOthers() async throws {
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "tls-secret"],
                                                        environment: ["OPENSWIFTDATA_CORS_ORIGINS": "https://a.example.com, http://localhost:3000"])
        defer { _ = server.terminate() }
        func preflight(from origin: String) async throws -> HTTPURLResponse? {
            var request = URLRequest(url: try #require(URL(string: server.url + "/v1/save")))
            request.httpMethod = "OPTIONS"
            request.setValue(origin, forHTTPHeaderField: "Origin")
            request.setValue("POST", forHTTPHeaderField: "Access-Control-Request-Method")
            return try await URLSession.shared.data(for: request).1 as? HTTPURLResponse
        }
        let allowed = try await preflight(from: "http://localhost:3000")
        #expect(allowed?.statusCode == 204)
        #expect(allowed?.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "http://localhost:3000")
        let other = try await preflight(from: "https://b.example.com")
        #expect(other?.statusCode == 401)
        #expect(other?.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == nil)
    }
}
