import Foundation
import Testing

/// A change sent through `--remote` whose answer was lost may have been applied; `trips` says so,
/// says whether the same command is safe to repeat, and exits with 75, not 1 (issue 46).
@Suite final class LostAnswerTripsTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lost-answer-\(UUID().uuidString)")
    let server: RemoteTripsTests.ServerProcess
    /// In front of `server`: every save is applied, and its answer dropped.
    let proxy: AnswerDroppingProxy
    let token = ["--token", "lost-secret"]

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = try RemoteTripsTests.ServerProcess(store: directory.appendingPathComponent("server.store"), token: "lost-secret")
        proxy = try AnswerDroppingProxy(upstream: server.url)
    }

    deinit {
        proxy.stop()
        _ = server.terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    private func trips(_ arguments: [String], through url: String) throws -> (status: Int32, output: String) {
        try RemoteTripsTests().trips(arguments + token + ["--remote", url])
    }

    @Test func anAddWhoseAnswerWasLostMayHaveBeenAppliedAndRepeatingItAddsNothingTwice() throws {
        let add = ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"]
        let lost = try trips(add, through: proxy.url)
        #expect(lost.status == 75)
        #expect(lost.output == """
            Error: The server may have added the trip 'Oslo' (2026-07-01): /v1/save was sent to the server at \
            \(proxy.url), but no answer came back (the server closed the connection before a whole answer; \
            3 attempts): it may have been applied. Run the same command again to make sure: it adds the trip \
            only if no trip of that name starts that day.

            """)

        let repeated = try trips(add, through: server.url)
        #expect(repeated.status == 1)
        #expect(repeated.output.contains("#1 Oslo already starts on 2026-07-01; nothing was added."))
        let listed = try trips(["list", "--json"], through: server.url)
        #expect(listed.output.components(separatedBy: #""name" : "Oslo""#).count == 2)
    }

    @Test func aBucketAddWhoseAnswerWasLostSaysToCheckBeforeRepeating() throws {
        #expect(try trips(["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"], through: server.url).status == 0)
        let lost = try trips(["bucket", "add", "Oslo", "Opera house"], through: proxy.url)
        #expect(lost.status == 75)
        #expect(lost.output.hasPrefix("Error: The server may have added 'Opera house' to #1 Oslo: /v1/save was sent"))
        #expect(lost.output.hasSuffix("Check with `trips bucket list 1` before running it again: a second run would apply it twice.\n"))
        let items = try trips(["bucket", "list", "Oslo", "--json"], through: server.url)
        #expect(items.output.components(separatedBy: #""title" : "Opera house""#).count == 2)
    }
}
