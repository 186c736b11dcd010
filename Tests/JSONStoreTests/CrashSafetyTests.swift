import DataStoreTesting
import Foundation
@testable import JSONStore
import OpenSwiftData
import TestModels
import Testing

@Suite(.serialized) struct CrashSafetyTests {
    /// SIGKILLs a writer 500 times at random instants while it saves (after one to three saves
    /// returned, so the count does not hang on the machine's speed): the file is never torn, no save
    /// that returned is missing, and reopening leaves no temporary file behind. Runs go on past 500
    /// until a kill has hit a save while it wrote its temporary file.
    @Test(.enabled(if: crashWriterURL != nil, "JSONStoreCrashWriter was not built next to the test bundle"),
          .timeLimit(.minutes(10)))
    func killedWritersNeitherTearTheFileNorLoseReturnedSaves() async throws {
        try await withBlockingWork(killWritersAndCheckTheFile)
    }

    private func killWritersAndCheckTheFile() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("crash.json")
        let configuration = JSONStoreConfiguration(name: "crash", url: url, outputFormatting: .compact)
        var generator = SystemRandomNumberGenerator()
        var torn = 0, lost = 0, orphans = 0, killedMidSave = 0, returnedSaves = 0
        var run = 0
        while run < 500 || (killedMidSave == 0 && run < 2_000) {
            run += 1
            let child = try CrashWriterProcess(file: url, run: run)
            try child.waitUntilReady()
            try child.waitForSaves(Int.random(in: 1...3, using: &generator))
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.02, using: &generator))
            let returned = child.kill()
            returnedSaves += returned.count
            if scratch.contents.contains(where: { $0.hasPrefix(DurableFile.temporaryPrefix(of: url)) }) { killedMidSave += 1 }
            let stored: [Int]
            do {
                let context = ModelContext(try ModelContainer(for: CrashRecord.self, configurations: configuration))
                stored = try context.fetch(FetchDescriptor<CrashRecord>(predicate: #Predicate { $0.run == run })).map(\.sequence).sorted()
            } catch {
                torn += 1
                Issue.record("run \(run): the file cannot be read after the kill: \(error)")
                continue
            }
            let last = returned.max() ?? 0
            // The save after the last reported one may have completed before its line was written.
            if stored != Array((0..<last).map { $0 + 1 }) && stored != Array((0...last).map { $0 + 1 }) {
                lost += 1
                Issue.record("run \(run): the writer reported saves 1...\(last), the file holds \(stored)")
            }
            orphans += scratch.contents.filter { $0.hasPrefix(DurableFile.temporaryPrefix(of: url)) }.count
        }
        #expect(torn == 0)
        #expect(lost == 0)
        #expect(orphans == 0, "reopening removes the temporary files of killed writers")
        #expect(returnedSaves >= run, "every writer reported a save before it was killed")
        #expect(killedMidSave > 0, "some kills hit a save while it wrote its temporary file")
    }
}
