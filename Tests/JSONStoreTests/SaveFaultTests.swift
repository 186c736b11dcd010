import Foundation
@testable import JSONStore
import OpenSwiftData
import Testing

/// Each step of a save's file replacement failing once: the message says what happened, and the
/// file and the context are as the message says.
@Suite struct SaveFaultTests {
    static let lostSteps: [DurableFile.Step] = [.write, .fsync, .rename]

    /// A store holding one note, saved.
    private func savedStore() throws -> (ScratchDirectory, URL, ModelContext) {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        context.insert(JSONNote(title: "first"))
        try context.save()
        return (scratch, url, context)
    }

    private func titles(_ url: URL) throws -> [String] {
        try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test(arguments: lostSteps)
    func aFailureBeforeTheRenameSavesNothingAndSaysSo(step: DurableFile.Step) throws {
        let (scratch, url, context) = try savedStore()
        let before = try Data(contentsOf: url)
        context.insert(JSONNote(title: "second"))
        DurableFile.injectFaultForTesting(step, atPath: url.path)
        let error = try #require(throws: JSONStoreError.self) { try context.save() }
        #expect(error.code == .ioFailure)
        #expect(error.message.hasPrefix("Writing \(url.path) failed: "))
        #expect(error.message.hasSuffix("Then save again: the previous file is intact and nothing was saved."))
        #expect(try Data(contentsOf: url) == before)
        #expect(scratch.contents == [".notes.json.lock", "notes.json"], "no temporary file is left")
        #expect(context.hasChanges)
        #expect(try titles(url) == ["first"])

        try context.save()
        #expect(try titles(url) == ["first", "second"])
    }

    @Test func aFailedDirectorySyncSaysTheSaveWasAppliedAndNotConfirmed() throws {
        let (scratch, url, context) = try savedStore()
        context.insert(JSONNote(title: "second"))
        DurableFile.injectFaultForTesting(.directoryFsync, atPath: url.path)
        let error = try #require(throws: JSONStoreError.self) { try context.save() }
        #expect(error.code == .notSynced)
        #expect(error.message == "The save was applied: \(url.path) holds it, but syncing its directory failed (fsync (directory) failed: Input/output error (errno 5)), so a power loss may undo it. Do not make the same changes again, they are in the file (discard the context's with rollback()); a retry with the same idempotency key is answered without applying them twice. The disk reported an I/O error: retry, and check the disk.")
        #expect(scratch.contents == [".notes.json.lock", "notes.json"])
        // The new file is live: for a new container, and for the store that wrote it.
        #expect(try titles(url) == ["first", "second"])
        context.rollback()
        #expect(try context.fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["first", "second"])
    }

    @Test func aRetryWithTheSameKeyAfterAFailedDirectorySyncIsAnsweredNotApplied() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let store = try JSONStore(JSONStoreConfiguration(name: "notes", schema: Schema([JSONNote.self, JSONTag.self]), url: url))
        let identifier = try PersistentIdentifier.identifier(for: "notes.json", entityName: "JSONNote", primaryKey: "once")
        let snapshot = DefaultSnapshot(persistentIdentifier: identifier, values: [
            "title": SnapshotValue("once"), "created": SnapshotValue(Date(timeIntervalSinceReferenceDate: 0)),
            "body": SnapshotValue(String?.none as Any), "tag": SnapshotValue(PersistentIdentifier?.none as Any),
        ])
        let request = DataStoreSaveChangesRequest(inserted: [snapshot], updated: [], deleted: [], editingState: EditingState())
        DurableFile.injectFaultForTesting(.directoryFsync, atPath: url.path)
        let answer = { (_: DataStoreSaveChangesResult<DefaultSnapshot>) in Data("answer".utf8) }
        let error = try #require(throws: JSONStoreError.self) { try store.save(request, receiptKey: "key-1", fingerprint: "f", response: answer) }
        #expect(error.code == .notSynced)
        let retry = try store.save(request, receiptKey: "key-1", fingerprint: "f", response: answer)
        #expect(retry.isReplay)
        #expect(retry.response == Data("answer".utf8))
        #expect(try titles(url) == ["once"])
    }
}
