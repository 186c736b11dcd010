import Foundation
import NIOSSL
import OpenSwiftData

/// Configures a ``RemoteStore``: the models live on an `openswiftdata-server` (or any app hosting
/// `StoreServer`) at `url`, reached with a bearer `token`.
///
/// ```swift
/// let remote = RemoteStoreConfiguration(name: "trips", url: URL(string: "https://data.example.com")!, token: token)
/// let container = try ModelContainer(for: Trip.self, configurations: remote)
/// ```
///
/// The container does not contact the server when it is created; the first fetch or save does,
/// and a server that cannot be reached then gives ``RemoteStoreError`` `.unreachable`.
public struct RemoteStoreConfiguration: DataStoreConfiguration, Sendable {
    /// The store this configuration opens.
    public typealias Store = RemoteStore

    /// The configuration's name, unique in its container; also the store's identifier.
    public var name: String
    /// The models this store holds; `nil` for the container's whole schema.
    public var schema: Schema?
    /// The server's base URL (`http://host:port`); the API's paths start at `/v1`.
    public var url: URL
    /// The bearer token sent with every request, one the server's configuration accepts.
    public var token: String
    /// The longest one attempt of a request may take, connecting included.
    public var timeout: Duration
    /// The longest one attempt waits for a connection (at most `timeout`): a server that is down
    /// fails each attempt after this long, instead of after `timeout`.
    public var connectTimeout: Duration
    /// How many times a request is sent before its error is reported: failures of the network and
    /// 502/503/504 answers are retried (saves with the same idempotency key, so they apply once).
    public var attempts: Int
    /// Whether the token may travel unencrypted, over `http://`, to a host other than this
    /// machine. Off by default: anyone on the network path could read the token and use it.
    /// Loopback hosts (`localhost`, `127.0.0.0/8`, `::1`) never need it.
    public var allowsInsecureHTTP: Bool
    /// A PEM file of root certificates to trust besides the system's, for an `https://` server
    /// whose certificate a private CA issued, or that signed its own (then give that certificate).
    public var additionalRootCertificates: URL?

    /// Describes a remote store at `url` with its token, time limits and number of attempts.
    public init(name: String = "RemoteStore", schema: Schema? = nil, url: URL, token: String,
                timeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(5), attempts: Int = 3,
                allowsInsecureHTTP: Bool = false, additionalRootCertificates: URL? = nil) {
        self.name = name
        self.schema = schema
        self.url = url
        self.token = token
        self.timeout = timeout
        self.connectTimeout = min(connectTimeout, timeout)
        self.attempts = max(1, attempts)
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.additionalRootCertificates = additionalRootCertificates
    }

    /// Rejects a URL that is not http(s) with a host, plain http to another machine unless
    /// ``allowsInsecureHTTP``, an empty token, and ``additionalRootCertificates`` that cannot be
    /// read as PEM certificates.
    public func validate() throws {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false else {
            throw RemoteStoreError(.invalidConfiguration, "The remote store's URL \(url) must be http:// or https:// with a host, e.g. http://127.0.0.1:8080.")
        }
        if !allowsInsecureHTTP, let host = Self.insecureHost(of: url) {
            throw RemoteStoreError(.insecureTransport, "The remote store would send its bearer token unencrypted, over http://, to \(host), which is not this machine. Reach the server over https:// (a TLS proxy in front of openswiftdata-server), or pass allowsInsecureHTTP: true on a network you trust.")
        }
        guard !token.isEmpty else {
            throw RemoteStoreError(.invalidConfiguration, "The remote store needs the server's bearer token; pass token:.")
        }
        if let additionalRootCertificates {
            try Self.checkRootCertificates(at: additionalRootCertificates)
        }
    }

    /// Reads the file as the TLS client will, so that a wrong path fails here, naming the file,
    /// rather than as a failed handshake.
    static func checkRootCertificates(at file: URL) throws {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw RemoteStoreError(.invalidConfiguration, "The root certificate file \(file.path) cannot be read; check the path and the file's permissions.")
        }
        let certificates = try? NIOSSLCertificate.fromPEMFile(file.path)
        guard let certificates, !certificates.isEmpty else {
            throw RemoteStoreError(.invalidConfiguration, "The root certificate file \(file.path) holds no PEM certificate; give the CA's certificate in PEM (-----BEGIN CERTIFICATE-----).")
        }
    }

    /// The host a plain `http://` URL would carry the token to, when that host is not this machine.
    package static func insecureHost(of url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", let host = url.host, !isLoopback(host) else { return nil }
        return host
    }

    /// Whether `host` names this machine: `localhost` (and its subdomains), `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether two configurations have the same name and URL.
    public static func == (lhs: RemoteStoreConfiguration, rhs: RemoteStoreConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url
    }

    /// Hashes the name and the URL.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }
}
