import Foundation
import Glibc

/// A TCP proxy in front of a server on 127.0.0.1 that passes each exchange through, one per
/// connection, except saves: it forwards a save, lets the server apply it, and closes the client's
/// connection without its answer (an answer lost on the way back).
final class AnswerDroppingProxy: @unchecked Sendable {
    private(set) var url = ""
    private let listener: Int32
    private let upstreamPort: UInt16

    init(upstream: String) throws {
        guard let port = URL(string: upstream)?.port else { throw ProxyFailure("no port in \(upstream)") }
        upstreamPort = UInt16(port)
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw ProxyFailure("cannot listen: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Thread { self.serve(client) }.start()
            }
        }.start()
    }

    /// Stops accepting; the accepting thread ends.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = Self.readRequest(client) else { return }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        // The server closes after answering, so its answer is everything up to the end.
        var head = String(decoding: request.head, as: UTF8.self)
        head.replaceSubrange(head.range(of: "\r\n")!, with: "\r\nConnection: close\r\n")
        Self.write(upstream, Array(head.utf8) + request.body)
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while case let count = recv(upstream, &chunk, chunk.count, 0), count > 0 { answer += chunk[0..<count] }
        if head.hasPrefix("POST /v1/save ") { return }
        Self.write(client, answer)
    }

    private static func readRequest(_ socket: Int32) -> (head: [UInt8], body: [UInt8])? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var length = 0
        while headEnd == nil || bytes.count < headEnd! + length {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            bytes += chunk[0..<count]
            if headEnd == nil, let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
                headEnd = end + separator.count
                let fields = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
                let field = fields.first { $0.lowercased().hasPrefix("content-length:") }
                length = field.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
        return (Array(bytes[..<headEnd!]), Array(bytes[headEnd!...]))
    }

    private static func write(_ socket: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
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

struct ProxyFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
