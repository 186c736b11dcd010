import Foundation
@testable import JSONStore
import OpenSwiftData
import Testing

/// A read that fails is an I/O error, never damage: the message says to retry and check the
/// disk, and suggests nothing against the file. Only a store file proven damaged is refused as
/// such, and an empty file is no store.
@Suite struct ReadFaultTests {
    /// An intact store file with two notes.
    private func intactStore() throws -> (scratch: ScratchDirectory, url: URL) {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        context.insert(JSONNote(title: "a"))
        context.insert(JSONNote(title: "b"))
        try context.save()
        return (scratch, url)
    }

    @Test(arguments: [(DurableFile.Step.read, "read failed: Input/output error (errno 5)"),
                      (.shortRead, "read (the file ended before its size) failed: Input/output error (errno 5)")])
    func aFailedReadIsAnIOErrorAndTheStoreOpensOnRetry(step: DurableFile.Step, failure: String) throws {
        let store = try intactStore()
        let url = store.url
        defer { withExtendedLifetime(store.scratch) {} }
        let before = try Data(contentsOf: url)
        DurableFile.injectFaultForTesting(step, atPath: url.path)
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .ioFailure)
        #expect(error.message == "The JSON store cannot read \(url.path): \(failure). The disk reported an I/O error: retry, and check the disk. The file itself may well be intact; nothing was changed.")
        #expect(try Data(contentsOf: url) == before)
        #expect(try ModelContext(notesContainer(url)).fetchCount(FetchDescriptor<JSONNote>()) == 2)
    }

    @Test func aReadThatReturnsWrongBytesOnceIsReadAgain() throws {
        let store = try intactStore()
        let url = store.url
        defer { withExtendedLifetime(store.scratch) {} }
        DurableFile.injectFaultForTesting(.garbledRead, atPath: url.path)
        #expect(try ModelContext(notesContainer(url)).fetchCount(FetchDescriptor<JSONNote>()) == 2)
    }

    @Test func anEmptyFileIsRefusedNotTakenForAnEmptyStore() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        try Data().write(to: url)
        let message = "\(url.path) is empty (0 bytes), so it holds no store: a JSON store is created only where no file exists. Pass the path of a file that does not exist to create one, or restore this file from a backup."
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .unreadableFile)
        #expect(error.message == message)
        let withPlan = try #require(throws: JSONStoreError.self) {
            try JSONStore(JSONStoreConfiguration(name: "notes", schema: Schema([JSONNote.self, JSONTag.self]), url: url),
                          migrationPlan: JSONNotesPlan.self)
        }
        #expect(withPlan.message == message)
        #expect(try #require(throws: JSONStoreError.self) { try JSONStore.storedSchema(at: url) }.message == message)
        #expect(try Data(contentsOf: url).isEmpty, "the file is left as it was")
    }

    @Test func aFlippedBitIsDamageThatNamesTheChecksum() throws {
        let store = try intactStore()
        let url = store.url
        defer { withExtendedLifetime(store.scratch) {} }
        var bytes = try Data(contentsOf: url)
        bytes[40] ^= 0x04
        try bytes.write(to: url)
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .unreadableFile)
        #expect(error.message == "\(url.path) is damaged: its checksum, the last element {\"crc32c\": …}, does not match its contents (read twice, the same both times). Restore it from a backup; if you edited it by hand, remove that element and the store reads the file as it is. Until then the store refuses to save over it.")
    }

    @Test func aFileEditedByHandOpensOnceItsChecksumIsRemoved() throws {
        let store = try intactStore()
        let url = store.url
        defer { withExtendedLifetime(store.scratch) {} }
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"title\" : \"a\"", with: "\"title\" : \"edited\"")
        try Data(text.utf8).write(to: url)
        #expect(throws: JSONStoreError.self) { try notesContainer(url) }
        let checksum = try #require(text.range(of: #",\#n  {"crc32c":""#))
        try Data((text[..<checksum.lowerBound] + "\n]").utf8).write(to: url)
        let context = ModelContext(try notesContainer(url))
        #expect(try context.fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["b", "edited"])
        context.insert(JSONNote(title: "c"))
        try context.save()
        #expect(FileChecksum.verify(try Data(contentsOf: url)) == .verified, "the next save writes a checksum again")
    }
}
