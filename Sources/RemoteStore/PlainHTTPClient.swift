#if os(Linux)
import Foundation
import StoreWire
import Synchronization

/// Requests to an `http://` server on the calling thread, over kept-alive connections.
///
/// `https://` goes through async-http-client instead (``HTTPTransport``): TLS is not ours to write.
final class PlainHTTPClient: Sendable {
    private let host: String
    private let port: Int
    /// The URL's path without its trailing slash, put before every request's path.
    private let basePath: String
    private let hostField: String
    private let idle = Mutex<[PlainHTTPConnection]>([])
    /// Idle connections kept beyond this many are closed: more would only hold server sockets.
    private static let idleLimit = 8

    /// Nil unless `url` is `http://` with a host.
    init?(_ url: URL) {
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else { return nil }
        self.host = host
        port = url.port ?? 80
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        hostField = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func execute(method: String, path: String, headers: [(String, String)], body: Data?,
                 connectTimeout: Duration, timeout: Duration) throws(PlainHTTPConnection.Failure) -> PlainHTTPConnection.Answer {
        let request = try bytes(method: method, path: path, headers: headers, body: body)
        let deadline = ContinuousClock.now + timeout
        // A kept-alive connection the server has meanwhile closed fails before any answer; the
        // request never reached the server, so it goes again on another connection.
        while let connection = idle.withLock({ $0.popLast() }) {
            do {
                return finish(try connection.exchange(request, deadline: deadline), on: connection)
            } catch .closedBeforeAnswer {
                continue
            }
        }
        let connection = try PlainHTTPConnection.open(host: host, port: port, deadline: min(deadline, ContinuousClock.now + connectTimeout))
        return finish(try connection.exchange(request, deadline: deadline), on: connection)
    }

    private func finish(_ answer: PlainHTTPConnection.Answer, on connection: PlainHTTPConnection) -> PlainHTTPConnection.Answer {
        if answer.reusable {
            idle.withLock { if $0.count < Self.idleLimit { $0.append(connection) } }
        }
        return answer
    }

    private func bytes(method: String, path: String, headers: [(String, String)], body: Data?) throws(PlainHTTPConnection.Failure) -> [UInt8] {
        var head = "\(method) \(basePath)\(path) HTTP/1.1\r\nHost: \(hostField)\r\n"
        for (name, value) in headers {
            // A line break in a value (a token pasted with its newline) would start a header of its own.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else {
                throw .invalidHeader(name)
            }
            head += "\(name): \(value)\r\n"
        }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes.append(contentsOf: body) }
        return bytes
    }
}
#endif
