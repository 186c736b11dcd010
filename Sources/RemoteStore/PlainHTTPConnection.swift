#if os(Linux)
import Foundation
import Glibc

/// One HTTP/1.1 connection over plain TCP, written and read on the calling thread.
///
/// A synchronous store call waits for its answer anyway; doing the socket work on the waiting
/// thread spares the two thread hand-offs (to an event loop and back) that an event-loop client
/// costs per request, which on a small machine is a large part of a short request's time.
/// One thread uses a connection at a time: whoever took it from ``PlainHTTPClient``'s idle list.
final class PlainHTTPConnection: @unchecked Sendable {
    enum Failure: Error {
        case connectTimedOut
        /// No connection: the name does not resolve, or the server refused. Nothing was sent.
        case noConnection(String)
        case timedOut
        /// The server closed the connection before sending any byte of the answer.
        case closedBeforeAnswer
        /// A header of the request holds a line break.
        case invalidHeader(String)
        /// The server's answer is not HTTP/1.1 as this client reads it.
        case malformed(String)
        case failed(String)
    }

    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: Data
        /// False when the server asked to close, or the body ran to the end of the stream.
        let reusable: Bool
    }

    private let socket: Int32
    /// Bytes read and not yet taken; a slice, so that taking from its front costs nothing.
    private var buffer = ArraySlice<UInt8>()
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    /// The answers on this connection so far: a connection that answered before may have been
    /// closed by the server while idle, so its first silence is not an error of the request.
    private var answered = 0

    private static let headerLimit = 64 * 1024

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit { close(socket) }

    /// Connects to `host`:`port`, trying each address the name resolves to.
    static func open(host: String, port: Int, deadline: ContinuousClock.Instant) throws(Failure) -> PlainHTTPConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .noConnection("the host name \(host) cannot be resolved (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var lastFailure = Failure.noConnection("\(host) has no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            do {
                return PlainHTTPConnection(socket: try connect(address.pointee, deadline: deadline))
            } catch {
                lastFailure = error
                if case .connectTimedOut = error { throw error }
            }
            entry = address.pointee.ai_next
        }
        throw lastFailure
    }

    private static func connect(_ address: addrinfo, deadline: ContinuousClock.Instant) throws(Failure) -> Int32 {
        let descriptor = Glibc.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { throw .noConnection("no socket (\(String(cString: strerror(errno))))") }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .noConnection("the connection was refused (\(reason))")
            }
            do {
                try wait(descriptor, for: Int16(POLLOUT), until: deadline)
            } catch {
                close(descriptor)
                if case .failed(let reason) = error { throw .noConnection(reason) }
                throw error == .timedOut ? .connectTimedOut : error
            }
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length)
            guard problem == 0 else {
                close(descriptor)
                throw .noConnection("the connection was refused (\(String(cString: strerror(problem))))")
            }
        }
        return descriptor
    }

    /// Sends one request and reads its whole answer.
    func exchange(_ request: [UInt8], deadline: ContinuousClock.Instant) throws(Failure) -> Answer {
        try send(request, deadline: deadline)
        let answer = try readAnswer(deadline: deadline)
        answered += 1
        return answer
    }

    private func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try Self.wait(socket, for: Int16(POLLOUT), until: deadline)
            } else {
                throw answered > 0 && offset == 0 ? .closedBeforeAnswer : .failed("the connection broke while sending (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private func fill(deadline: ContinuousClock.Instant) throws(Failure) -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                if errno == ECONNRESET, buffer.isEmpty, answered > 0 { throw .closedBeforeAnswer }
                throw .failed("the connection broke while reading (\(String(cString: strerror(errno))))")
            }
            try Self.wait(socket, for: Int16(POLLIN), until: deadline)
        }
    }

    private func readAnswer(deadline: ContinuousClock.Instant) throws(Failure) -> Answer {
        var headerEnd: Int?
        while true {
            headerEnd = Self.headerEnd(in: buffer)
            if headerEnd != nil { break }
            guard buffer.count < Self.headerLimit else { throw .malformed("the server's answer has over \(Self.headerLimit) bytes of headers") }
            guard try fill(deadline: deadline) else {
                throw buffer.isEmpty && answered > 0 ? .closedBeforeAnswer : .failed("the server closed the connection before a whole answer")
            }
        }
        let head = try Self.parseHead(buffer.prefix(headerEnd!))
        buffer.removeFirst(headerEnd! + 4)
        if (100..<200).contains(head.status) { return try readAnswer(deadline: deadline) }
        let field = { (name: String) in head.headers.last { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1 }
        var reusable = field("Connection")?.lowercased() != "close"
        let body: Data
        if head.status == 204 || head.status == 304 {
            body = Data()
        } else if field("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            body = try readChunked(deadline: deadline)
        } else if let text = field("Content-Length") {
            guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                throw .malformed("the server sent a Content-Length of \(text)")
            }
            while buffer.count < length {
                guard try fill(deadline: deadline) else { throw .failed("the server closed the connection after \(buffer.count) of \(length) bytes") }
            }
            body = Data(buffer.prefix(length))
            buffer.removeFirst(length)
        } else {
            while try fill(deadline: deadline) {}
            body = Data(buffer)
            buffer = []
            reusable = false
        }
        return Answer(status: head.status, headers: head.headers, body: body, reusable: reusable)
    }

    private func readChunked(deadline: ContinuousClock.Instant) throws(Failure) -> Data {
        var body = Data()
        while true {
            let line = try readLine(deadline: deadline)
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformed("the server sent a malformed chunk size \(line)") }
            if size == 0 {
                while try !readLine(deadline: deadline).isEmpty {}
                return body
            }
            while buffer.count < size + 2 {
                guard try fill(deadline: deadline) else { throw .failed("the server closed the connection inside a chunk") }
            }
            body.append(contentsOf: buffer.prefix(size))
            buffer.removeFirst(size + 2)
        }
    }

    private func readLine(deadline: ContinuousClock.Instant) throws(Failure) -> String {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                buffer = buffer[(end + 1)...]
                return line
            }
            guard buffer.count < Self.headerLimit else { throw .malformed("the server sent a line of over \(Self.headerLimit) bytes") }
            guard try fill(deadline: deadline) else { throw .failed("the server closed the connection inside a chunked body") }
        }
    }

    /// The offset of the blank line that ends the head, from the start of `bytes`.
    private static func headerEnd(in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        let base = bytes.startIndex
        for index in base...(bytes.endIndex - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index - base
        }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Failure) -> (status: Int, headers: [(String, String)]) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100..<600).contains(status) else {
            throw .malformed("the server's answer does not start with an HTTP/1.1 status line: \(lines[0].prefix(100))")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("the server sent a malformed header line: \(line.prefix(100))") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers)
    }

    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws(Failure) {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .timedOut }
            let milliseconds = Int32(clamping: (left.wholeNanoseconds + 999_999) / 1_000_000)
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .failed("waiting on the connection failed (\(String(cString: strerror(errno))))") }
        }
    }
}

extension PlainHTTPConnection.Failure: Equatable {}
#endif
