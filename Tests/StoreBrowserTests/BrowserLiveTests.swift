import Foundation
import HTTPTypes
import NIOCore
import OpenSwiftData
import SampleTrips
import StoreBrowser
import Testing

/// The live updates: the server's history stream as server-sent events, a `change` per new
/// transaction, whoever saved it.
@Suite struct BrowserLiveTests {
    @Test func theEventStreamAnnouncesAnotherClientsSave() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try harness.seed { $0.insert(Trip(name: "First", destination: "Oslo", startDate: .now, endDate: .now)) }
        let cookie = try await session(of: harness.browser)
        let answer = await harness.browser.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/browse/events",
                                                                   headerFields: [.cookie: "osd_session=\(cookie)"]),
                                                   mountedAt: "/browse", body: ByteBuffer())
        #expect(answer.head.status == .ok)
        #expect(answer.head.headerFields[.contentType] == "text/event-stream")
        guard case .stream(let stream) = answer.body else {
            Issue.record("the events answer is not a stream")
            return
        }
        let received = Received()
        let reader = Task { for await part in stream { await received.append(String(buffer: part)) } }
        defer { reader.cancel() }
        let opening = try await received.first(2, within: .seconds(10))
        #expect(opening[0] == "retry: 2000\n\n")
        #expect(opening[1].hasPrefix("event: change\ndata: "))
        try harness.seed { $0.insert(Trip(name: "Second", destination: "Rome", startDate: .now, endDate: .now)) }
        // The server looks for saves made outside it once a second while someone listens.
        let after = try await received.first(3, within: .seconds(10))
        #expect(after[2].hasPrefix("event: change\ndata: "))
        #expect(after[2] != opening[1])
    }

    /// Logs in through the browser's framework-neutral entry point.
    func session(of browser: StoreBrowser) async throws -> String {
        let form = await browser.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/browse/login"),
                                         mountedAt: "/browse", body: ByteBuffer())
        let nonce = try #require(setCookie("osd_login", in: form.head.headerFields))
        let login = await browser.respond(to: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/browse/login",
                                                          headerFields: [.cookie: "osd_login=\(nonce)", .contentType: formType]),
                                          mountedAt: "/browse", body: ByteBuffer(string: "csrf=\(nonce)&token=\(browserToken)"))
        return try #require(setCookie("osd_session", in: login.head.headerFields))
    }
}

/// The parts a stream sent, for a test to wait on.
actor Received {
    private var parts: [String] = []

    func append(_ part: String) {
        parts.append(part)
    }

    /// The first `count` parts, once they came; fails the test after `limit`.
    func first(_ count: Int, within limit: Duration) async throws -> [String] {
        let deadline = ContinuousClock.now + limit
        while parts.count < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("only \(parts.count) of \(count) parts came within \(limit): \(parts)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return Array(parts.prefix(count))
    }
}
