#if os(Linux)
import Foundation
import Glibc
import Synchronization

/// A TCP proxy in front of a test server that passes each request on unchanged and sends the
/// answer back framed another way: what other HTTP servers and proxies do, and ours never does.
final class ReframingProxy: Sendable {
    enum Framing: Sendable {
        /// `Transfer-Encoding: chunked`, in chunks of 7 bytes, one with an extension.
        case chunked
        /// Neither a length nor chunks: the body ends where the proxy closes the connection.
        case untilClose
        /// A normal answer, then the connection closes without a word, as an idle timeout does.
        case closeAfterEachAnswer
        /// Bytes that are not HTTP.
        case garbage
    }

    let url: URL
    private let listener: Int32
    private let upstreamPort: UInt16
    private let framing: Framing
    private let accepted = Atomic<Int>(0)
    private let forwarded = Atomic<Int>(0)

    /// Connections clients opened to the proxy so far.
    var connections: Int { accepted.load(ordering: .relaxed) }
    /// Requests the proxy passed on so far.
    var requests: Int { forwarded.load(ordering: .relaxed) }

    init(upstream: URL, framing: Framing) throws {
        self.framing = framing
        upstreamPort = UInt16(upstream.port!)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting; connections already open end with their clients.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            accepted.add(1, ordering: .relaxed)
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var pending: [UInt8] = []
        while let request = Self.readMessage(from: client, buffer: &pending) {
            forwarded.add(1, ordering: .relaxed)
            guard let answer = forward(request) else { return }
            let head = answer.head.filter { !$0.lowercased().hasPrefix("content-length") }
            switch framing {
            case .chunked:
                var bytes = Array((head + ["Transfer-Encoding: chunked", "", ""]).joined(separator: "\r\n").utf8)
                for (index, start) in stride(from: 0, to: answer.body.count, by: 7).enumerated() {
                    let chunk = answer.body[start..<min(start + 7, answer.body.count)]
                    bytes += Array((String(chunk.count, radix: 16) + (index == 1 ? ";note=x" : "") + "\r\n").utf8) + chunk + [13, 10]
                }
                bytes += Array("0\r\n\r\n".utf8)
                Self.write(bytes, to: client)
            case .untilClose:
                Self.write(Array((head + ["", ""]).joined(separator: "\r\n").utf8) + answer.body, to: client)
                return
            case .closeAfterEachAnswer:
                Self.write(Array((head + ["Content-Length: \(answer.body.count)", "", ""]).joined(separator: "\r\n").utf8) + answer.body, to: client)
                return
            case .garbage:
                Self.write(Array("SPDY/9 nonsense\r\n\r\n".utf8), to: client)
                return
            }
        }
    }

    /// The upstream server's answer to `request`: its status and header lines, and its body.
    private func forward(_ request: [UInt8]) -> (head: [String], body: [UInt8])? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        Self.write(request, to: upstream)
        var pending: [UInt8] = []
        guard let answer = Self.readMessage(from: upstream, buffer: &pending),
              let end = Self.headEnd(answer) else { return nil }
        let head = String(decoding: answer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        return (head, Array(answer[(end + 4)...]))
    }

    /// One whole message (head and a body of Content-Length bytes) from `descriptor`.
    private static func readMessage(from descriptor: Int32, buffer: inout [UInt8]) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = headEnd(buffer) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    let message = Array(buffer[0..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return message
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
#endif
