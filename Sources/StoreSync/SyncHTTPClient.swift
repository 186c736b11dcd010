import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client a ``SyncEngine`` sends its requests through (``SyncConfiguration/httpClient``).
///
/// The default is `URLSession`. Give another where `URLSession` cannot do what a deployment
/// needs: on Linux it trusts only the system's certificate authorities, so a server whose
/// certificate a private CA issued needs a client that trusts that CA (`trips sync
/// --ca-certificate` brings one built on AsyncHTTPClient). Continuous sync's events stream
/// always goes through `URLSession`; where that cannot connect, continuous sync asks the server
/// for changes every ``SyncConfiguration/pollInterval`` instead.
public protocol SyncHTTPClient: Sendable {
    /// Sends `request` and returns the answer's body and response, whatever its status.
    ///
    /// Throws when no answer came: the server unreachable, the connection broken, or
    /// `request.timeoutInterval` passed. A ``SyncError`` thrown here reaches the caller as it is
    /// (say `.untrustedServer` for a certificate the client does not trust); any other error
    /// becomes `.offline`, which a later round retries.
    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The default client: an ephemeral `URLSession` of the engine's own.
struct URLSessionSyncClient: SyncHTTPClient {
    private let session: URLSession

    init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 2
        session = URLSession(configuration: configuration)
    }

    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw SyncError(.invalidResponse, "The server at \(request.url?.absoluteString ?? "?") answered without HTTP.")
        }
        return (data, http)
    }
}
