import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The engine's HTTP calls to the server, through its ``SyncHTTPClient`` (`URLSession` unless
/// configured): JSON `POST`s with the bearer token, their failures turned into ``SyncError``s
/// that say whether a retry may help.
final class SyncTransport: Sendable {
    let server: URL
    private let token: String
    private let client: any SyncHTTPClient
    private let timeout: TimeInterval

    init(server: URL, token: String, timeout: Duration, client: (any SyncHTTPClient)? = nil) {
        self.server = server
        self.token = token
        self.timeout = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        self.client = client ?? URLSessionSyncClient(timeout: self.timeout)
    }

    func url(_ path: String) -> URL {
        server.appendingPathComponent(path)
    }

    /// A request for `path` with the token (and the other headers every call sends).
    func request(_ path: String) -> URLRequest {
        var request = URLRequest(url: url(path), timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Posts `body` and returns the answer's bytes; `idempotencyKey` makes a retry of a push be
    /// applied once.
    func post(_ path: String, body: Data, idempotencyKey: String? = nil) async throws -> Data {
        var request = request(path)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        let data: Data
        let http: HTTPURLResponse
        do {
            (data, http) = try await client.data(for: request)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as SyncError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if Self.isUntrustedCertificate(error) {
                throw SyncError(.untrustedServer, "The server at \(server.absoluteString) presented a TLS certificate this client does not trust (\(error.localizedDescription)). If a private CA issued it, give the engine an HTTP client that trusts that CA (SyncConfiguration.httpClient; trips sync: --ca-certificate), and check that the URL's host is one the certificate names.")
            }
            throw SyncError(.offline, "The server at \(server.absoluteString) could not be reached (\(error.localizedDescription)); the changes stay pending until a later round reaches it.")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw Self.error(status: http.statusCode, body: data, server: server)
        }
        return data
    }

    /// Posts `message` as JSON and decodes the answer with `decoder`.
    func post<Answer: Decodable>(_ path: String, _ message: some Encodable, as _: Answer.Type, decoder: JSONDecoder,
                                 idempotencyKey: String? = nil) async throws -> Answer {
        let body = try SyncCoding.encoder().encode(message)
        return try decode(Answer.self, from: try await post(path, body: body, idempotencyKey: idempotencyKey), decoder: decoder, path: path)
    }

    func decode<Answer: Decodable>(_ type: Answer.Type, from data: Data, decoder: JSONDecoder, path: String) throws -> Answer {
        do {
            return try decoder.decode(Answer.self, from: data)
        } catch {
            throw SyncError(.invalidResponse, "The server's answer to \(path) is not what the sync protocol says (\(error)); is \(server.absoluteString) an openswiftdata-server of this version?")
        }
    }

    /// Whether `URLSession` failed on a certificate it does not trust: a retry cannot help.
    /// Linux's Foundation reports libcurl's verification failure as an unknown error, so there
    /// libcurl's message tells it.
    private static func isUntrustedCertificate(_ error: any Error) -> Bool {
        let error = error as NSError
        guard error.domain == NSURLErrorDomain else { return false }
        let codes = [NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateHasBadDate,
                     NSURLErrorServerCertificateNotYetValid]
        if codes.contains(error.code) { return true }
        let message = error.localizedDescription
        return error.code == NSURLErrorUnknown && (message.hasPrefix("SSL certificate problem") || message.contains("certificate subject name"))
    }

    private static func error(status: Int, body: Data, server: URL) -> SyncError {
        let detail = try? JSONDecoder().decode(ErrorBody.self, from: body).error
        let message = detail?.message ?? "HTTP \(status)"
        switch (status, detail?.code) {
        case (_, "schemaVersionMismatch"?):
            return SyncError(.schemaVersionMismatch, message)
        case (_, "historyTokenExpired"?):
            return SyncError(.serverHistoryExpired, message)
        case (401, _):
            return SyncError(.unauthorized, "The server refused the token (\(message)); configure the token the server was started with.")
        case (403, _):
            return SyncError(.unauthorized, "The server does not let this token sync (\(message)); use a token with write access.")
        case (500..., _), (429, _), (408, _):
            return SyncError(.serverUnavailable, "The server could not serve the request now (\(message)); a later round retries.")
        default:
            return SyncError(.rejected, "The server refused the request (HTTP \(status), \(detail?.code ?? "no code")): \(message)")
        }
    }
}
