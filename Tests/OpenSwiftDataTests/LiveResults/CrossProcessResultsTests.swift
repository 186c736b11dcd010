import Foundation
import Observation
import OpenSwiftData
import Synchronization
import TestModels
import Testing

/// A `ResultsObserver` on an actor sees what another process saves into the same SQLite file,
/// through the store's history.
@Suite struct CrossProcessResultsTests {
    @MainActor @Test func observerSeesSavesOfAnotherProcess() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: SQLiteCrashTests.child.path),
                "build the SQLiteCrashChild executable first (swift build --build-tests)")
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.store")
        let container = try ModelContainer(for: CrashBatch.self, configurations: ModelConfiguration(url: url))
        let observer = try ResultsObserver<CrashBatch, Never>(modelContainer: container)
        #expect(observer.results.isEmpty)

        let child = Process()
        child.executableURL = SQLiteCrashTests.child
        child.arguments = [url.path]
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        // A liveness bound, not a speed check: the observer polls history twice a second.
        for _ in 0..<200 where observer.results.count < 5 {
            try await Task.sleep(for: .milliseconds(50))
        }
        sendSIGKILL(child.processIdentifier)
        child.waitUntilExit()
        #expect(observer.results.count >= 5)

        let stored = try ModelContext(container).fetchCount(FetchDescriptor<CrashBatch>())
        for _ in 0..<100 where observer.results.count != stored {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(observer.results.count == stored)
        #expect(stored % 5 == 0)
    }

    @MainActor @Test func savesOfThisProcessAreNotFetchedAgainFromHistory() async throws {
        let directory = try TemporaryDirectory()
        let container = try ModelContainer(for: CrashBatch.self, configurations: ModelConfiguration(url: directory.file("own.store")))
        let observer = try ResultsObserver<CrashBatch, Never>(modelContainer: container)
        let context = container.mainContext
        context.insert(CrashBatch(batch: 1, item: 0, payload: "a"))
        try context.save()
        for _ in 0..<100 where observer.results.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(observer.results.count == 1)

        // The save is in the history too; three polls later it has not caused another fetch.
        let refetched = Mutex(false)
        withObservationTracking { _ = observer.results } onChange: { refetched.withLock { $0 = true } }
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(refetched.withLock { $0 } == false)
    }
}
