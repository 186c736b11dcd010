import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOSSL
import RemoteStore
import StoreSync

/// `trips sync --ca-certificate`: the sync engine's requests through AsyncHTTPClient, which
/// trusts a private CA besides the system's; `URLSession` on Linux trusts the system's alone.
final class TrustingSyncClient: SyncHTTPClient {
    /// The largest answer read: a pull page or a snapshot page, far below it.
    private static let answerLimit = 256 * 1024 * 1024
    private let client: HTTPClient
    private let authority: String

    init(authority: String) {
        self.authority = authority
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(authority)]
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        // A certificate that is not trusted fails the round at once rather than after retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections; due before the process ends.
    func shutdown() async {
        try? await client.shutdown()
    }

    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else {
            throw SyncError(.invalidConfiguration, "A sync request has no URL.")
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(Int64(request.timeoutInterval * 1e9)))
            let body = try await response.body.collect(upTo: Self.answerLimit)
            let fields = Dictionary(response.headers.map { ($0.name, $0.value) }) { first, second in "\(first), \(second)" }
            guard let http = HTTPURLResponse(url: url, statusCode: Int(response.status.code), httpVersion: "HTTP/1.1", headerFields: fields) else {
                throw SyncError(.invalidResponse, "The server at \(url.absoluteString) answered with a status this client cannot read.")
            }
            return (Data(body.readableBytesView), http)
        } catch let error where isUntrustedCertificate(error) {
            throw SyncError(.untrustedServer, "The server at \(url.absoluteString) presented a TLS certificate that neither the system's CAs nor \(authority) issued (\(error)); pass the CA that issued it, and check that the URL's host is one the certificate names.")
        }
    }
}
