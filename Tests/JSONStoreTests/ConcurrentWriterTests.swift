import Foundation
import JSONStore
import OpenSwiftData
import TestModels
import Testing

@Suite struct ConcurrentWriterTests {
    @Test func twoContainersOnOneFileKeepEachOthersSaves() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let first = ModelContext(try notesContainer(url))
        let second = ModelContext(try notesContainer(url))
        first.insert(JSONNote(title: "from the first"))
        try first.save()
        #expect(try second.fetch(FetchDescriptor<JSONNote>()).map(\.title) == ["from the first"], "the second store reloads the changed file")
        second.insert(JSONNote(title: "from the second"))
        try second.save()
        first.insert(JSONNote(title: "first again"))
        try first.save()
        let titles = try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(titles == ["first again", "from the first", "from the second"])
    }

    @Test func uniqueUpsertsSeeAnotherStoresSaves() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let first = ModelContext(try notesContainer(url))
        let second = ModelContext(try notesContainer(url))
        first.insert(JSONTag(name: "work"))
        try first.save()
        let again = JSONTag(name: "work")
        second.insert(again)
        try second.save()
        #expect(try ModelContext(notesContainer(url)).fetchCount(FetchDescriptor<JSONTag>()) == 1)
    }

    @Test(.enabled(if: crashWriterURL != nil, "JSONStoreCrashWriter was not built next to the test bundle"))
    func anotherProcessSavingAtTheSameTimeLosesNothing() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("records.json")
        let configuration = JSONStoreConfiguration(name: "crash", url: url, outputFormatting: .compact)
        let context = ModelContext(try ModelContainer(for: CrashRecord.self, configurations: configuration))
        let child = try CrashWriterProcess(file: url, run: 1)
        try child.waitUntilReady()
        for sequence in 1...40 {
            context.insert(CrashRecord(run: 0, sequence: sequence, payload: ""))
            try context.save()
        }
        // However the two processes were scheduled, the child has saved before it is killed.
        try child.waitForSaves(1)
        let returned = child.kill()
        #expect(returned.count > 0, "the child saved while this process did")
        let stored = try ModelContext(ModelContainer(for: CrashRecord.self, configurations: configuration))
            .fetch(FetchDescriptor<CrashRecord>())
        #expect(stored.filter { $0.run == 0 }.map(\.sequence).sorted() == Array(1...40))
        let childSequences = Set(stored.filter { $0.run == 1 }.map(\.sequence))
        #expect(Set(returned).isSubset(of: childSequences), "every save the child saw return is in the file")
    }
}

/// A running `JSONStoreCrashWriter`, and the saves it reported.
final class CrashWriterProcess {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    init(file: URL, run: Int) throws {
        process.executableURL = crashWriterURL
        process.arguments = [file.path, String(run)]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until the writer opened its store (or exited).
    func waitUntilReady() throws {
        try read(until: { $0.contains("ready\n") })
    }

    /// Blocks until the writer reported `count` returned saves (or exited).
    func waitForSaves(_ count: Int) throws {
        try read(until: { $0.components(separatedBy: "\nsaved ").count - 1 >= count })
    }

    /// Reads the writer's output until `done` holds for all of it so far.
    private func read(until done: (String) -> Bool) throws {
        while !done(String(decoding: buffer, as: UTF8.self)) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            buffer.append(chunk)
        }
    }

    /// SIGKILLs the writer; returns the sequence numbers of the saves it reported as returned.
    func kill() -> [Int] {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("saved ") ? line.split(separator: " ").last.flatMap { Int($0) } : nil
        }
    }
}
