import Foundation
import OpenSwiftData
import StoreSync
import Testing

/// `start()`: saves go up on their own, the server's changes come down on their own, and a
/// failed round is retried.
@Suite final class ContinuousSyncTests {
    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    /// Waits up to `seconds` for `condition`.
    private func eventually(_ seconds: Double = 120, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try condition()
    }

    @Test func aSaveOnOneClientArrivesOnAnotherWithoutCallingSync() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        a.engine.start()
        b.engine.start()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Live"))
        try context.save()

        let arrived = try await eventually { try b.dump().count == 1 }
        await a.engine.stop()
        await b.engine.stop()
        #expect(arrived)
        #expect(try b.dump() == a.dump())
    }

    @Test func aRoundThatFailsIsRetriedAndReported() async throws {
        let client = try SyncClient("a", server: server.url, directory: directory)
        let offline = try SyncWorld.Client.offlineEngine(client.container)
        offline.start()
        let waiting = try await eventually {
            if case .waitingToRetry = offline.status.phase { return offline.status.lastError?.code == .offline }
            return false
        }
        await offline.stop()
        #expect(waiting)
    }
}
