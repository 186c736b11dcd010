import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import StoreWire
import Synchronization

/// Synchronous JSON requests over async-http-client, for the synchronous `DataStore` API.
///
/// The client runs on an event loop thread of its own, and the caller waits on a semaphore for
/// the answer. Whatever thread calls (main thread, a background thread, a Swift concurrency task,
/// even another NIO event loop), the work it waits for never needs that thread, so it cannot
/// deadlock; every attempt has a deadline.
final class HTTPTransport: @unchecked Sendable {
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let client: HTTPClient
    private let baseURL: String
    private let token: String
    private let timeout: Duration
    private let connectTimeout: Duration
    private let attempts: Int
    /// A request per path and method, its URL parsed and its standard headers set once: parsing a
    /// URL costs more than the rest of preparing a request. The store's paths are a fixed few.
    private let templates = Mutex<[String: HTTPClient.Request]>([:])

    init(_ configuration: RemoteStoreConfiguration) {
        var base = configuration.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
        token = configuration.token
        timeout = configuration.timeout
        connectTimeout = configuration.connectTimeout
        attempts = configuration.attempts
        client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: HTTPClient.Configuration(
            timeout: .init(connect: Self.amount(configuration.connectTimeout), read: Self.amount(configuration.timeout))))
    }

    deinit {
        try? client.syncShutdown()
        try? group.syncShutdownGracefully()
    }

    /// POSTs `body` (or GETs when nil), sending it again after a network failure or a 502, 503
    /// or 504, up to the configured number of attempts. Errors name `label` (the path unless
    /// given): a request made on behalf of another one names that one.
    func send(_ path: String, body: Data?, headers extra: [(String, String)] = [], label: String? = nil) throws -> Reply {
        var lastFailure: RemoteStoreError?
        for attempt in 0..<attempts {
            if attempt > 0 { Thread.sleep(forTimeInterval: min(0.1 * pow(3, Double(attempt - 1)), 2)) }
            do {
                let reply = try once(path, body: body, headers: extra, label: label ?? path)
                guard [502, 503, 504].contains(reply.status), attempt < attempts - 1 else { return reply }
            } catch let failure as RemoteStoreError {
                lastFailure = failure
            }
        }
        throw lastFailure ?? RemoteStoreError(.unreachable, "The server at \(baseURL) did not answer.")
    }

    private func once(_ path: String, body: Data?, headers extra: [(String, String)], label: String) throws -> Reply {
        var request: HTTPClient.Request
        do {
            request = try template(path, method: body == nil ? .GET : .POST)
        } catch {
            throw RemoteStoreError(.invalidConfiguration, "\(baseURL + path) is not a URL a request can be sent to: \(error).", underlying: error)
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

    private func template(_ path: String, method: HTTPMethod) throws -> HTTPClient.Request {
        let key = "\(method.rawValue) \(path)"
        if let request = templates.withLock({ $0[key] }) { return request }
        let request = try HTTPClient.Request(url: baseURL + path, method: method,
                                             headers: HTTPHeaders([("Authorization", "Bearer \(token)"), ("Accept", "application/json")]))
        templates.withLock { $0[key] = request }
        return request
    }

    private func classify(_ error: any Error, path: String) -> RemoteStoreError {
        if let error = error as? HTTPClientError, error == .connectTimeout {
            return RemoteStoreError(.unreachable, "No connection to the server at \(baseURL) within \(connectTimeout) (after \(attempts) attempts). Check the URL and that openswiftdata-server is running.", underlying: error)
        }
        if let error = error as? HTTPClientError, [.deadlineExceeded, .readTimeout].contains(error) {
            return RemoteStoreError(.timedOut, "The server at \(baseURL) did not answer \(path) within \(timeout) (after \(attempts) attempts); check that it is running and not overloaded.", underlying: error)
        }
        return RemoteStoreError(.unreachable, "The server at \(baseURL) could not be reached for \(path) (after \(attempts) attempts): \(error). Check the URL and that openswiftdata-server is running.", underlying: error)
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.wholeNanoseconds)
    }
}

/// Written once by the event loop before the semaphore is signalled, read after.
private final class Outcome: @unchecked Sendable {
    var result: Result<HTTPClient.Response, any Error>?
}
