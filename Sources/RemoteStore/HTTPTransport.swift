import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import StoreWire
import Synchronization

/// Synchronous JSON requests, for the synchronous `DataStore` API.
///
/// `http://` requests run on the calling thread (``PlainHTTPClient``). `https://` requests run on
/// async-http-client's event loop thread of its own while the caller waits on a semaphore.
/// Whatever thread calls (main thread, a background thread, a Swift concurrency task, even
/// another NIO event loop), the work it waits for never needs another of its threads, so it
/// cannot deadlock; every attempt has a deadline.
final class HTTPTransport: @unchecked Sendable {
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    /// How requests go: no event loop thread is started for a store that does not use one.
    private enum Route {
        #if os(Linux)
        case callingThread(PlainHTTPClient)
        #endif
        case eventLoop(MultiThreadedEventLoopGroup, HTTPClient)
    }

    private let route: Route
    private let baseURL: String
    private let timeout: Duration
    private let connectTimeout: Duration
    private let attempts: Int
    /// A request per path and method, its URL parsed and its standard headers set once: parsing a
    /// URL costs more than the rest of preparing a request. The store's paths are a fixed few.
    private let templates = Mutex<[String: HTTPClient.Request]>([:])
    /// The bearer token and the JSON `Accept`, sent with every request.
    private let standardHeaders: [(String, String)]

    init(_ configuration: RemoteStoreConfiguration) {
        var base = configuration.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
        timeout = configuration.timeout
        connectTimeout = configuration.connectTimeout
        attempts = configuration.attempts
        standardHeaders = [("Authorization", "Bearer \(configuration.token)"), ("Accept", "application/json")]
        #if os(Linux)
        if let plain = PlainHTTPClient(configuration.url) {
            route = .callingThread(plain)
            return
        }
        #endif
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = configuration.additionalRootCertificates {
            tls.additionalTrustRoots = [.file(roots.path)]
        }
        var client = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: Self.amount(configuration.connectTimeout),
                                                                                    read: Self.amount(configuration.timeout)))
        // The attempts are ours (``send(_:body:headers:label:)``): a connection that fails, on an
        // untrusted certificate above all, is reported at once rather than retried until the
        // connect timeout.
        client.connectionPool.retryConnectionEstablishment = false
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        route = .eventLoop(group, HTTPClient(eventLoopGroupProvider: .shared(group), configuration: client))
    }

    deinit {
        if case .eventLoop(let group, let client) = route {
            try? client.syncShutdown()
            try? group.syncShutdownGracefully()
        }
    }

    /// POSTs `body` (or GETs when nil), sending it again after a network failure or a 502, 503
    /// or 504, up to the configured number of attempts, after the pause a `Retry-After` asks for
    /// (5 s at most). Errors name `label` (the path unless given): a request made on behalf of
    /// another one names that one. A call that changes the store (``StoreAPI/changing``) which
    /// reached the server on some attempt and never got an answer fails with `.outcomeUnknown`:
    /// it may have been applied, and saying "unreachable" would invite a retry that applies it twice.
    func send(_ path: String, body: Data?, headers extra: [(String, String)] = [], label: String? = nil) throws -> Reply {
        let label = label ?? path
        var lastFailure: RemoteStoreError?
        var lostAnswer: String?
        var pause: TimeInterval = 0
        for attempt in 0..<attempts {
            if attempt > 0 { Thread.sleep(forTimeInterval: pause) }
            pause = min(0.1 * pow(3, Double(attempt)), 2)
            do {
                let reply = try once(path, body: body, headers: extra, label: label)
                guard [502, 503, 504].contains(reply.status) else { return reply }
                guard attempt < attempts - 1 else {
                    if let lostAnswer, StoreAPI.changing.contains(path) { throw outcomeUnknown(label, lostAnswer: lostAnswer) }
                    return reply
                }
                if let seconds = reply.headers.first(name: "Retry-After").flatMap(Double.init), seconds >= 0 {
                    pause = min(seconds, 5)
                }
            } catch let failure as AttemptFailure {
                // Sending it again cannot help: the same request, or the same certificate.
                guard ![.invalidConfiguration, .untrustedServer].contains(failure.error.code) else { throw failure.error }
                lastFailure = failure.error
                if let reason = failure.lostAnswer { lostAnswer = reason }
            }
        }
        if let lostAnswer, StoreAPI.changing.contains(path) { throw outcomeUnknown(label, lostAnswer: lostAnswer, underlying: lastFailure) }
        throw lastFailure ?? RemoteStoreError(.unreachable, "The server at \(baseURL) did not answer.")
    }

    private func outcomeUnknown(_ label: String, lostAnswer: String, underlying: RemoteStoreError? = nil) -> RemoteStoreError {
        RemoteStoreError(.outcomeUnknown, "\(label) was sent to the server at \(baseURL), but no answer came back (\(lostAnswer); \(attempts) attempts): it may have been applied.", underlying: underlying)
    }

    /// One attempt's failure; `lostAnswer` says why no answer came when the request may have
    /// reached the server (it was connected and sent, wholly or in part), nil when it cannot have.
    private struct AttemptFailure: Error {
        let error: RemoteStoreError
        let lostAnswer: String?

        init(_ error: RemoteStoreError, lostAnswer: String? = nil) {
            self.error = error
            self.lostAnswer = lostAnswer
        }
    }

    private func once(_ path: String, body: Data?, headers extra: [(String, String)], label: String) throws -> Reply {
        switch route {
        #if os(Linux)
        case .callingThread(let plain):
            return try once(plain, path, body: body, headers: extra, label: label)
        #endif
        case .eventLoop(_, let client):
            return try once(client, path, body: body, headers: extra, label: label)
        }
    }

    private func once(_ client: HTTPClient, _ path: String, body: Data?, headers extra: [(String, String)], label: String) throws -> Reply {
        var request: HTTPClient.Request
        do {
            request = try template(path, method: body == nil ? .GET : .POST)
        } catch {
            throw AttemptFailure(RemoteStoreError(.invalidConfiguration, "\(baseURL + path) is not a URL a request can be sent to: \(error).", underlying: error))
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(body)
        }
        request.headers.add(contentsOf: extra)
        let future = client.execute(request: request, deadline: .now() + Self.amount(timeout))
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { result in
            outcome.result = result
            done.signal()
        }
        done.wait()
        switch outcome.result! {
        case .success(let response):
            let bytes = response.body.map { Data($0.readableBytesView) } ?? Data()
            return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
        case .failure(let error):
            throw classify(error, path: label)
        }
    }

    #if os(Linux)
    private func once(_ plain: PlainHTTPClient, _ path: String, body: Data?, headers extra: [(String, String)], label: String) throws -> Reply {
        var headers = standardHeaders
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += extra
        do {
            let answer = try plain.execute(method: body == nil ? "GET" : "POST", path: path, headers: headers, body: body,
                                           connectTimeout: connectTimeout, timeout: timeout)
            return Reply(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
        } catch {
            throw classify(error, path: label)
        }
    }

    private func classify(_ failure: PlainHTTPConnection.Failure, path: String) -> AttemptFailure {
        switch failure {
        case .connectTimedOut:
            AttemptFailure(noConnection(underlying: failure))
        case .noConnection(let reason):
            AttemptFailure(unreachable(for: path, reason: reason, underlying: failure))
        case .timedOut:
            AttemptFailure(noAnswer(to: path, underlying: failure), lostAnswer: "no answer within \(timeout)")
        case .invalidHeader(let name):
            AttemptFailure(RemoteStoreError(.invalidConfiguration, "The \(name) header of \(path) holds a line break; remove it from the token or header value.", underlying: failure))
        case .closedBeforeAnswer:
            AttemptFailure(RemoteStoreError(.unreachable, "The server at \(baseURL) closed the connection before answering \(path) (after \(attempts) attempts). Check that openswiftdata-server is running.", underlying: failure),
                           lostAnswer: "the server closed the connection before answering")
        case .malformed(let reason):
            AttemptFailure(RemoteStoreError(.invalidResponse, "The answer of the server at \(baseURL) to \(path) is not HTTP/1.1 (\(reason)); check that the URL names an openswiftdata-server and not another service.", underlying: failure))
        case .failed(let reason):
            AttemptFailure(unreachable(for: path, reason: reason, underlying: failure), lostAnswer: reason)
        }
    }
    #endif

    private func template(_ path: String, method: HTTPMethod) throws -> HTTPClient.Request {
        let key = "\(method.rawValue) \(path)"
        if let request = templates.withLock({ $0[key] }) { return request }
        let request = try HTTPClient.Request(url: baseURL + path, method: method,
                                             headers: HTTPHeaders(standardHeaders))
        templates.withLock { $0[key] = request }
        return request
    }

    private func classify(_ error: any Error, path: String) -> AttemptFailure {
        if let error = error as? HTTPClientError, error == .connectTimeout {
            return AttemptFailure(noConnection(underlying: error))
        }
        if let error = error as? HTTPClientError, [.deadlineExceeded, .readTimeout].contains(error) {
            return AttemptFailure(noAnswer(to: path, underlying: error), lostAnswer: "no answer within \(timeout)")
        }
        if isUntrustedCertificate(error) {
            return AttemptFailure(RemoteStoreError(.untrustedServer, "The server at \(baseURL) presented a TLS certificate this client does not trust (\(error)). If a private CA issued it, or the server signed its own, pass that CA's certificate (a PEM file) as additionalRootCertificates (trips: --ca-certificate); check too that the URL's host is one the certificate names.", underlying: error))
        }
        // Failing to connect sends nothing, nor does a failed TLS handshake; any other failure
        // may come after the request went.
        var connecting = error is NIOConnectionError || error is NIOSSLError
        if case .connectTimeout? = error as? ChannelError { connecting = true }
        return AttemptFailure(unreachable(for: path, reason: "\(error)", underlying: error), lostAnswer: connecting ? nil : "\(error)")
    }

    private func noConnection(underlying: any Error) -> RemoteStoreError {
        RemoteStoreError(.unreachable, "No connection to the server at \(baseURL) within \(connectTimeout) (after \(attempts) attempts). Check the URL and that openswiftdata-server is running.", underlying: underlying)
    }

    private func noAnswer(to path: String, underlying: any Error) -> RemoteStoreError {
        RemoteStoreError(.timedOut, "The server at \(baseURL) did not answer \(path) within \(timeout) (after \(attempts) attempts); check that it is running and not overloaded.", underlying: underlying)
    }

    private func unreachable(for path: String, reason: String, underlying: any Error) -> RemoteStoreError {
        RemoteStoreError(.unreachable, "The server at \(baseURL) could not be reached for \(path) (after \(attempts) attempts): \(reason). Check the URL and that openswiftdata-server is running.", underlying: underlying)
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.wholeNanoseconds)
    }
}

/// Written once by the event loop before the semaphore is signalled, read after.
private final class Outcome: @unchecked Sendable {
    var result: Result<HTTPClient.Response, any Error>?
}
