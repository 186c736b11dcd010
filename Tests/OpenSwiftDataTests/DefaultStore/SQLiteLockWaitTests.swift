import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Another writer on the same file (another process, here another connection) holds the write
/// lock for a while: a save waits for it instead of failing at once with "database is locked".
@Suite struct SQLiteLockWaitTests {
    @Test func aSaveWaitsForAnotherWritersLockAndThenSucceeds() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("locked.store")
        let container = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(StoreVisit(place: "first"))
        try context.save()

        let other = try DatabaseQueue(path: url.path)
        let holding = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                holding.signal()
                Thread.sleep(forTimeInterval: 1.0)
                try db.execute(sql: "COMMIT")
            }
            released.signal()
        }
        holding.wait()
        let started = Date()
        context.insert(StoreVisit(place: "second"))
        try context.save()
        let waited = Date().timeIntervalSince(started)
        released.wait()
        #expect(waited >= 0.5, "the save waited for the other writer's lock (waited \(waited) s)")
        #expect(try ModelContext(container).fetch(FetchDescriptor<StoreVisit>(sortBy: [SortDescriptor(\.place)])).map(\.place) == ["first", "second"])
    }
}
