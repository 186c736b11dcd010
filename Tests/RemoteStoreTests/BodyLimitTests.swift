#if os(Linux)
import Foundation
import Glibc
import StoreServer
import Testing

/// A request body is bounded in size (413, naming the limit and how to raise it) and in time: a
/// client that trickles its body gets 408 once the server's body deadline has passed, however
/// often it sends a byte, and the server goes on serving others (issue 46, items 10 and 11).
@Suite final class BodyLimitTests {
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: notesSchema, directory: directory, maxBodySize: 1024, bodyTimeLimit: .milliseconds(300))
    }

    deinit { stopInBackground(server, removing: directory) }

    /// A request's head; `Connection: close` has the server close once it has answered.
    private func head(length: Int? = nil) -> String {
        "POST /v1/count HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(testToken)\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + (length.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n") + "\r\n"
    }

    /// The `error` object of an answer's JSON body.
    private func error(in answer: String) -> [String: String]? {
        guard let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().first else { return nil }
        return (try? JSONDecoder().decode([String: [String: String]].self, from: Data(body.utf8)))?["error"]
    }

    @Test func aBodyTrickledPastTheDeadlineGets408AndTheConnectionIsClosed() async throws {
        let client = try Socket(port: server.port)
        client.send(head(length: 100) + "{")
        // A byte every 50 ms would finish the body after 5 s; the deadline is 300 ms after the headers.
        var answer = ""
        for _ in 0..<100 where !answer.contains("\r\n\r\n") {
            client.send(" ")
            answer += client.read(for: .milliseconds(50))
        }
        answer += client.readToEnd(for: .seconds(5))
        #expect(answer.hasPrefix("HTTP/1.1 408 "))
        #expect(error(in: answer) == ["code": "timeout", "message": "The request body did not arrive within the server's limit of 0.3 s; send it whole and promptly."])
        #expect(client.isClosedByPeer)
        #expect(try await RawHTTP(baseURL: server.url).send("/v1/health", method: .GET, token: nil).status == 200)
    }

    @Test(arguments: [true, false])
    func aBodyOverTheLimitGets413NamingTheLimitAndHowToRaiseIt(declaresLength: Bool) throws {
        let client = try Socket(port: server.port)
        let body = #"{"query":{"entityName":"Note","sortBy":[]},"pad":""# + String(repeating: "x", count: 2000) + #""}"#
        client.send(head(length: declaresLength ? body.utf8.count : nil)
            + (declaresLength ? body : String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"))
        let answer = client.readToEnd(for: .seconds(5))
        #expect(answer.hasPrefix("HTTP/1.1 413 "))
        #expect(error(in: answer) == ["code": "payloadTooLarge", "message": "The request body is larger than the server's limit of 1024 bytes; save or query in smaller parts, or raise the limit (openswiftdata-server --max-body-size, or StoreServerConfiguration.maxBodySize)."])
    }

    @Test func theDefaultsBoundABodyTo4MiBAnd60Seconds() throws {
        let configuration = try StoreServerConfiguration(tokens: ["t"])
        #expect(configuration.maxBodySize == 4 << 20)
        #expect(configuration.bodyTimeLimit == .seconds(60))
    }
}

/// A blocking TCP connection to 127.0.0.1, for requests no HTTP client would send.
private final class Socket {
    private let descriptor: Int32
    private(set) var isClosedByPeer = false

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives within `duration` (less if the peer closes first).
    func read(for duration: Duration) -> String {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + duration
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while !isClosedByPeer, case let left = deadline - .now, left > .zero {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))) > 0 else { break }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { isClosedByPeer = true } else { received += chunk[0..<count] }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives until the peer closes, waiting at most `duration`.
    func readToEnd(for duration: Duration) -> String { read(for: duration) }
}
#endif
