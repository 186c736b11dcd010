import DataStoreTesting
import Foundation
import GRDB
import TestModels
import Testing

/// A child process (the `SQLiteCrashChild` executable) saves batches of five models and reports
/// each save that returned; the test kills it with SIGKILL at random points, then checks that the
/// file is intact and that every reported batch is there, whole.
@Suite struct SQLiteCrashTests {
    /// Built next to the test binary by `swift build --build-tests` / `swift test`.
    static let child = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("SQLiteCrashChild")

    // Off the cooperative pool: waiting on 200 child processes would hold one of its threads for
    // minutes, and the tests that await would stall behind it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: child.path)))
    func savesThatReturnedSurviveSIGKILLAtTwoHundredRandomPoints() async throws {
        try await withBlockingWork(killChildrenAndCheckTheFile)
    }

    private func killChildrenAndCheckTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("crash.store")
        var generator = SplitMix64(state: 2026)
        var reported = Set<Int>()
        for kill in 0..<200 {
            let process = Process()
            process.executableURL = Self.child
            process.arguments = [url.path]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.2, using: &generator))
            sendSIGKILL(process.processIdentifier)
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationReason == .uncaughtSignal, "kill \(kill): the child exited by itself: \(stderr)")
            for line in text.split(separator: "\n") where line.hasPrefix("saved ") {
                reported.insert(Int(line.dropFirst(6))!)
            }
            let (integrity, batches) = try inspect(url)
            #expect(integrity == ["ok"], "kill \(kill)")
            #expect(reported.isSubset(of: Set(batches.keys)), "kill \(kill): reported saves are missing")
            #expect(batches.values.allSatisfy { $0 == 5 }, "kill \(kill): a batch was written in part")
        }
        #expect(reported.count > 100)
    }

    /// `PRAGMA integrity_check`, and the number of rows of each batch.
    private func inspect(_ url: URL) throws -> ([String], [Int: Int]) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (["ok"], [:]) }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            guard try db.tableExists("CrashBatch") else { return (integrity, [:]) }
            var batches: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT batch, COUNT(*) FROM CrashBatch GROUP BY batch") {
                batches[row[0]] = row[1]
            }
            return (integrity, batches)
        }
    }
}

func sendSIGKILL(_ pid: Int32) {
    _ = Foundation.kill(pid, SIGKILL)
}
