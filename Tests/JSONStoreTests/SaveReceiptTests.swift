import Foundation
import JSONStore
import OpenSwiftData
import Testing

/// The JSON store applies a save once per receipt key, across restarts, and a receipt written
/// just before a crash that kept its save from the file does not count.
@Suite struct SaveReceiptTests {
    private func store(_ url: URL) throws -> JSONStore {
        try JSONStore(JSONStoreConfiguration(name: "notes", schema: Schema([JSONNote.self, JSONTag.self]), url: url))
    }

    private func inserting(_ key: String) throws -> DataStoreSaveChangesRequest<DefaultSnapshot> {
        let identifier = try PersistentIdentifier.identifier(for: "notes.json", entityName: "JSONNote", primaryKey: key)
        let snapshot = DefaultSnapshot(persistentIdentifier: identifier, values: [
            "title": SnapshotValue(key), "created": SnapshotValue(Date(timeIntervalSinceReferenceDate: 0)),
            "body": SnapshotValue(String?.none as Any), "tag": SnapshotValue(PersistentIdentifier?.none as Any),
        ])
        return DataStoreSaveChangesRequest(inserted: [snapshot], updated: [], deleted: [], editingState: EditingState())
    }

    private func save(_ store: JSONStore, _ key: String, answer: String) throws -> SaveReceipt {
        try store.save(try inserting(key), receiptKey: key, fingerprint: "f-\(key)") { _ in Data(answer.utf8) }
    }

    private func titles(_ url: URL) throws -> [String] {
        try ModelContext(try notesContainer(url)).fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test func aSaveRetriedAfterARestartGetsItsFirstAnswer() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        #expect(try save(try store(url), "a", answer: "first") == SaveReceipt(response: Data("first".utf8), isReplay: false))
        #expect(try save(try store(url), "a", answer: "second") == SaveReceipt(response: Data("first".utf8), isReplay: true))
        #expect(try titles(url) == ["a"])
        #expect(scratch.contents == [".notes.json.lock", ".notes.json.receipts", "notes.json"])
    }

    @Test func aKeyUsedForAnotherSaveIsRefused() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let opened = try store(url)
        _ = try save(opened, "a", answer: "first")
        let error = #expect(throws: PersistenceError.self) {
            try opened.save(try inserting("b"), receiptKey: "a", fingerprint: "other") { _ in Data() }
        }
        #expect(error?.code == .idempotencyKeyReused)
        #expect(try titles(url) == ["a"])
    }

    @Test func aReceiptWhoseSaveNeverReachedTheFileIsDroppedAndTheRetryApplied() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        _ = try save(try store(url), "a", answer: "first")
        let before = try Data(contentsOf: url)
        _ = try save(try store(url), "b", answer: "second")
        // The process died after writing b's receipt and before replacing the file.
        try before.write(to: url)
        #expect(try save(try store(url), "b", answer: "again") == SaveReceipt(response: Data("again".utf8), isReplay: false))
        #expect(try save(try store(url), "a", answer: "late") == SaveReceipt(response: Data("first".utf8), isReplay: true))
        #expect(try titles(url) == ["a", "b"])
    }
}
