import Foundation
import GRDB
import OpenSwiftData
import Testing

@Suite struct SQLiteFileSafetyTests {
    private func open(_ url: URL) throws -> ModelContainer {
        try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftByteForByte() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("other.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')")
        }
        try queue.close()
        let before = try Data(contentsOf: url)
        let error = try #require(throws: SQLiteStoreError.self) { try open(url) }
        #expect(error.code == .notAStore)
        #expect(error.path == url.path)
        #expect(error.description == "notAStore: The file is an SQLite database of another program (it has tables but no osd_metadata table), so the store leaves it untouched. Choose another URL for the store, or move the file away. (store: \(url.path))")
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["other.sqlite"])
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAsCorruptAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("garbage.store")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: url)
        let error = try #require(throws: SQLiteStoreError.self) { try open(url) }
        #expect(error.code == .corrupt)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aStoreWhoseHeaderWasOverwrittenIsRefusedAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("damaged.store")
        do {
            let context = ModelContext(try open(url))
            context.insert(StoreVisit(place: "somewhere"))
            try context.save()
        }
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange(0..<16, with: Data(repeating: 0x41, count: 16))
        try bytes.write(to: url)
        try? FileManager.default.removeItem(atPath: url.path + "-wal")
        try? FileManager.default.removeItem(atPath: url.path + "-shm")
        let error = try #require(throws: SQLiteStoreError.self) { try open(url) }
        #expect(error.code == .corrupt)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aSaveWaitsForAnotherConnectionsLockInsteadOfFailing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("busy.store")
        let container = try open(url)
        let blocker = try DatabaseQueue(path: url.path)
        let locked = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? blocker.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                Thread.sleep(forTimeInterval: 1)
                try db.execute(sql: "COMMIT")
            }
            released.signal()
        }
        locked.wait()
        let context = ModelContext(container)
        context.insert(StoreVisit(place: "after the lock"))
        let start = Date()
        try context.save()
        #expect(Date().timeIntervalSince(start) > 0.5)
        released.wait()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<StoreVisit>()) == 1)
    }
}
