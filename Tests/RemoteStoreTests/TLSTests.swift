import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing
import TLSTestSupport

/// A `StoreServer` serving HTTPS with a certificate of a private CA, and `RemoteStore` clients
/// that trust that CA, and that do not.
@Suite final class TLSTests {
    let certificates: TestCertificates
    let directory: URL

    init() throws {
        certificates = try TestCertificates()
        directory = try makeDirectory()
    }

    deinit {
        certificates.remove()
        try? FileManager.default.removeItem(at: directory)
    }

    func tlsServer() throws -> RunningStoreServer {
        try startServer(schema: notesSchema, directory: directory,
                        tls: StoreServerConfiguration.TLS(certificateFile: certificates.certificate, privateKeyFile: certificates.key))
    }

    func remote(_ url: URL, trusting authority: String?) -> RemoteStoreConfiguration {
        RemoteStoreConfiguration(name: "remote", schema: notesSchema, url: url, token: testToken, attempts: 1,
                                 additionalRootCertificates: authority.map { URL(fileURLWithPath: $0) })
    }

    @Test func aRemoteStoreTrustingTheServersCASavesAndFetchesOverHTTPS() throws {
        let server = try tlsServer()
        defer { server.stop() }
        #expect(server.url.absoluteString == "https://127.0.0.1:\(server.port)")
        let container = try ModelContainer(for: notesSchema, configurations: [remote(server.url, trusting: certificates.authority)])
        let context = ModelContext(container)
        context.insert(Note(slug: "tls", text: "over https", rank: 7))
        try context.save()

        let fetched = try ModelContext(container).fetch(FetchDescriptor<Note>())
        #expect(fetched.map { "\($0.slug) \($0.text) \($0.rank)" } == ["tls over https 7"])
    }

    @Test func aClientThatDoesNotTrustTheCertificateFailsAndSendsNothing() throws {
        let server = try tlsServer()
        defer { server.stop() }
        let container = try ModelContainer(for: notesSchema, configurations: [remote(server.url, trusting: nil)])
        let context = ModelContext(container)
        context.insert(Note(slug: "untrusted", text: "never sent", rank: 1))

        let error = #expect(throws: RemoteStoreError.self) { try context.save() }
        #expect(error?.code == .untrustedServer)
        #expect(error?.message.hasPrefix("The server at \(server.url.absoluteString) presented a TLS certificate this client does not trust") == true)
        #expect(context.hasChanges)
        let trusting = try ModelContainer(for: notesSchema, configurations: [remote(server.url, trusting: certificates.authority)])
        #expect(try ModelContext(trusting).fetchCount(FetchDescriptor<Note>()) == 0)
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefusedNamingBothFiles() throws {
        let error = #expect(throws: StoreServerError.self) {
            try StoreServerConfiguration.TLS(certificateFile: certificates.certificate, privateKeyFile: certificates.otherKey)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.hasPrefix("The TLS private key in \(certificates.otherKey) does not belong to the certificate in \(certificates.certificate) (") == true)
        #expect(error?.message.hasSuffix("); give the key the certificate was issued for.") == true)
    }

    @Test func aMissingCertificateFileIsRefusedNamingIt() throws {
        let missing = certificates.path("absent.pem")
        let error = #expect(throws: StoreServerError.self) {
            try StoreServerConfiguration.TLS(certificateFile: missing, privateKeyFile: certificates.key)
        }
        #expect(error?.message == "The TLS certificate file \(missing) does not exist; check the path and the file's permissions.")
    }

    @Test func aKeyFileThatIsNotPEMIsRefusedNamingIt() throws {
        let error = #expect(throws: StoreServerError.self) {
            try StoreServerConfiguration.TLS(certificateFile: certificates.certificate, privateKeyFile: certificates.path("server.ext"))
        }
        #expect(error?.message.hasPrefix("The TLS private key file \(certificates.path("server.ext")) is not a PEM private key (") == true)
    }

    @Test func aRootCertificateFileThatHoldsNoCertificateIsRefusedBeforeAnythingIsSent() throws {
        let notPEM = certificates.path("server.ext")
        let error = #expect(throws: RemoteStoreError.self) {
            try ModelContainer(for: notesSchema, configurations: [remote(URL(string: "https://127.0.0.1:1")!, trusting: notPEM)])
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.hasPrefix("The root certificate file \(notPEM) holds no PEM certificate") == true)
    }
}
