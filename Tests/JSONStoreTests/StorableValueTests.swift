import Foundation
import JSONStore
import OpenSwiftData
import Testing

/// The JSON store keeps what every store keeps (``StorableValues``): non-finite doubles round-trip,
/// dates outside the years 1–9999 are refused by name, never a crash.
@Suite struct StorableValueTests {
    static let unstorable: [(seconds: Double, text: String)] = [
        (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (1e20, "1e+20"), (1e308, "1e+308"), (-1e12, "-1000000000000.0"),
    ]

    @Test(arguments: unstorable)
    func aDateNoStoreKeepsIsRefusedAndNothingIsSaved(date: (seconds: Double, text: String)) throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        context.insert(JSONNote(title: "kept", created: Date(timeIntervalSinceReferenceDate: 0)))
        try context.save()
        context.insert(JSONNote(title: "far", created: Date(timeIntervalSinceReferenceDate: date.seconds)))
        let error = try #require(throws: JSONStoreError.self) { try context.save() }
        #expect(error.code == .invalidValue)
        #expect(error.message == "JSONNote.created: \(date.text) seconds since 2001-01-01 is not a date a store keeps: dates must be finite and lie in the years 1 to 9999 (UTC). Nothing was saved.")
        #expect(context.hasChanges)
        let fresh = ModelContext(try notesContainer(url))
        #expect(try fresh.fetch(FetchDescriptor<JSONNote>()).map(\.title) == ["kept"])
    }

    @Test func theFirstAndLastStorableDatesRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        let first = Date(timeIntervalSinceReferenceDate: StorableValues.dateSeconds.lowerBound)
        let last = Date(timeIntervalSinceReferenceDate: StorableValues.dateSeconds.upperBound.nextDown)
        context.insert(JSONNote(title: "first", created: first))
        context.insert(JSONNote(title: "last", created: last))
        try context.save()
        let fresh = ModelContext(try notesContainer(url))
        let read = try fresh.fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(read.map(\.created) == [first, last])
    }

    @Test func aFileHoldingADateNoStoreKeepsIsUnreadableNotACrash() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let note = #"{"persistentIdentifier":{"implementation":{"entityName":"JSONNote","primaryKey":"1","storeIdentifier":"notes.json"}},"title":"a","created":1e308,"body":null,"tag":null}"#
        try Data("[\(note)]".utf8).write(to: url)
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .unreadableFile)
        #expect(error.message.contains("in the snapshot at index 0 of the top-level array, at created: 1e+308 seconds since 2001-01-01 is not a date a store keeps"), "\(error.message)")
    }
}
