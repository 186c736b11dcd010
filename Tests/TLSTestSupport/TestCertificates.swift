import Foundation

/// A private certificate authority and a server certificate it issued for `127.0.0.1` and
/// `localhost`, made with `openssl` in a fresh directory when a test starts: no key is committed,
/// and each run's CA is trusted nowhere else.
public struct TestCertificates: Sendable {
    public let directory: URL

    /// The CA's certificate, which a client passes to trust the server.
    public var authority: String { path("ca.pem") }
    /// The server's certificate and its private key.
    public var certificate: String { path("server.pem") }
    public var key: String { path("server.key") }
    /// A private key that belongs to no certificate here.
    public var otherKey: String { path("other.key") }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("TestCertificates-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl(["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=OpenSwiftData test CA",
                                                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try openssl(["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n".utf8)
            .write(to: directory.appendingPathComponent("server.ext"))
        try openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                     "-out", "server.pem", "-days", "2", "-extfile", "server.ext"])
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key"])
    }

    public func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CertificateFailure(description: "openssl \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self)); the TLS tests need openssl on the PATH.")
        }
    }

    public struct CertificateFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
