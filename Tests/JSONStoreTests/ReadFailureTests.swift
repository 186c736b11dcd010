import Foundation
import JSONStore
import OpenSwiftData
import TestModels
import Testing

@Suite struct ReadFailureTests {
    static let note = #"{"persistentIdentifier":{"implementation":{"entityName":"JSONNote","primaryKey":"1","storeIdentifier":"notes.json"}},"title":"a","created":"2024-05-01T09:30:00Z","body":null,"tag":null}"#

    /// Opens a store on `contents` and returns the error it throws.
    private func openingError(_ contents: String) throws -> JSONStoreError {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        try Data(contents.utf8).write(to: url)
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .unreadableFile)
        #expect(error.url == url)
        #expect(error.message.hasPrefix("\(url.path) cannot be read: "))
        #expect(error.message.hasSuffix("Restore it from a backup, or fix it where the message says (the same bytes were read twice); until it can be read, the store refuses to save over it."))
        #expect(try text(of: url) == contents, "the file is left as it was")
        return error
    }

    @Test func invalidJSONIsReportedWithItsLineAndColumn() throws {
        let error = try openingError("[\n  \(Self.note),\n  {\"persistentIdentifier\" oops}\n]")
        #expect(error.message.contains("cannot be read: it is not valid JSON at line 3, column 27: expected ':' after the key, found \"oops}\". Restore"), "\(error.message)")
    }

    @Test func aTruncatedFileIsReported() throws {
        let error = try openingError("[\n  \(Self.note.dropLast(30))")
        #expect(error.message.contains("cannot be read: it is not valid JSON at line 2, column 158: expected the closing '\"' of the string, found the end of the file. Restore"), "\(error.message)")
    }

    @Test func aValueOfTheWrongTypeIsReportedWithTheSnapshotAndKey() throws {
        let wrong = Self.note.replacingOccurrences(of: #""title":"a""#, with: #""title":42"#)
        let error = try openingError("[\(Self.note.replacingOccurrences(of: "\"1\"", with: "\"0\"")),\(wrong)]")
        #expect(error.message.contains("in the snapshot at index 1 of the top-level array, at title: expected String"), "\(error.message)")
    }

    @Test func aMissingPropertyIsReportedWithTheSnapshot() throws {
        let missing = Self.note.replacingOccurrences(of: #","title":"a""#, with: "")
        let error = try openingError("[\(missing)]")
        #expect(error.message.contains("in the snapshot at index 0 of the top-level array"), "\(error.message)")
        #expect(error.message.contains("title"), "\(error.message)")
    }

    @Test func anEntityOutsideTheSchemaIsReported() throws {
        let record = #"{"persistentIdentifier":{"implementation":{"entityName":"CrashRecord","primaryKey":"1","storeIdentifier":"x"}},"run":1,"sequence":1,"payload":""}"#
        _ = Schema([CrashRecord.self])  // known to the process, but not to the store's schema
        let error = try openingError("[\(Self.note),\(record)]")
        #expect(error.message.contains("the snapshot at index 1 of the top-level array is of entity 'CrashRecord', which this store's schema does not have; expected one of JSONNote, JSONTag"), "\(error.message)")
    }

    @Test func aTopLevelObjectIsReported() throws {
        let error = try openingError(Self.note)
        #expect(error.message.contains("at the top level (expected a JSON array of snapshots)"), "\(error.message)")
    }

    @Test func aRepeatedIdentifierIsReported() throws {
        let error = try openingError("[\(Self.note),\(Self.note)]")
        #expect(error.message.contains("the snapshot at index 1 of the top-level array has the identifier of the one at index 0"), "\(error.message)")
    }

    @Test func aFileCorruptedWhileOpenIsNeverSavedOver() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        context.insert(JSONNote(title: "a"))
        try context.save()
        let garbage = "[{\"persistentIdentifier\": tru"
        try Data(garbage.utf8).write(to: url)

        let fetchError = try #require(throws: JSONStoreError.self) { try context.fetch(FetchDescriptor<JSONNote>()) }
        #expect(fetchError.code == .unreadableFile)
        context.insert(JSONNote(title: "b"))
        let saveError = try #require(throws: JSONStoreError.self) { try context.save() }
        #expect(saveError.code == .unreadableFile)
        #expect(try text(of: url) == garbage, "the store refused to overwrite what it could not read")
        #expect(context.hasChanges)

        try FileManager.default.removeItem(at: url)  // the user removes the broken file: the store works again
        try context.save()
        #expect(try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>()).map(\.title) == ["b"])
    }
}
