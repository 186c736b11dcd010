import Foundation
import NIOSSL

extension StoreServerConfiguration {
    /// The certificate and private key a ``StoreServer`` serves HTTPS with, read and checked
    /// when created, so that a server with a bad pair fails to start rather than failing each
    /// connection's handshake.
    ///
    /// ```swift
    /// var configuration = try StoreServerConfiguration(host: "0.0.0.0", port: 8443, tokens: ["s3cret"])
    /// configuration.tls = try .init(certificateFile: "/etc/osd/server.pem", privateKeyFile: "/etc/osd/server.key")
    /// ```
    public struct TLS: Sendable {
        /// The PEM file of the server's certificate, followed by the intermediate certificates
        /// of its chain, if any.
        public let certificateFile: String
        /// The PEM file of the certificate's private key (unencrypted).
        public let privateKeyFile: String
        let configuration: TLSConfiguration

        /// Reads both files; throws ``StoreServerError`` `.invalidConfiguration`, naming the file,
        /// when one cannot be read, holds no PEM certificate or key, or when the key is not the
        /// certificate's.
        public init(certificateFile: String, privateKeyFile: String) throws {
            let chain = try Self.read(certificateFile, what: "certificate") { try NIOSSLCertificate.fromPEMFile($0) }
            guard !chain.isEmpty else {
                throw StoreServerError(.invalidConfiguration, "The TLS certificate file \(certificateFile) holds no PEM certificate; give the server's certificate as a file starting with -----BEGIN CERTIFICATE-----.")
            }
            let key = try Self.read(privateKeyFile, what: "private key") { try NIOSSLPrivateKey(file: $0, format: .pem) }
            let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                         privateKey: .privateKey(key))
            // Building a context is where BoringSSL compares the key with the certificate.
            do {
                _ = try NIOSSLContext(configuration: configuration)
            } catch {
                throw StoreServerError(.invalidConfiguration, "The TLS private key in \(privateKeyFile) does not belong to the certificate in \(certificateFile) (\(error)); give the key the certificate was issued for.")
            }
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
            self.configuration = configuration
        }

        /// Reads a PEM file, saying which one failed and why: a file that is not there or not
        /// readable is told apart from one whose content is not PEM.
        private static func read<T>(_ path: String, what: String, _ parse: (String) throws -> T) throws -> T {
            guard FileManager.default.isReadableFile(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "is not readable by this process" : "does not exist"
                throw StoreServerError(.invalidConfiguration, "The TLS \(what) file \(path) \(reason); check the path and the file's permissions.")
            }
            do {
                return try parse(path)
            } catch {
                throw StoreServerError(.invalidConfiguration, "The TLS \(what) file \(path) is not a PEM \(what) (\(error)); give an unencrypted PEM file, as openssl writes it.")
            }
        }
    }
}
