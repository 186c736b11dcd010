import Foundation
@testable import JSONStore
import OpenSwiftData
import Testing

@Suite struct FileFormatTests {
    /// The file without its checksum element, which must match it: the seeds' format.
    private func withoutChecksum(_ text: String) -> String {
        #expect(FileChecksum.verify(Data(text.utf8)) == .verified)
        return text.replacingOccurrences(of: #"(,\n  |  |,)?\{"crc32c":"[0-9a-f]{8}"\}"#, with: "", options: .regularExpression)
    }

    static let handWritten = """
        [
          {
            "body" : null,
            "created" : "2024-05-01T09:30:00Z",
            "persistentIdentifier" : {
              "implementation" : {
                "entityName" : "JSONNote",
                "isTemporary" : false,
                "primaryKey" : "6F9619FF-8B86-D011-B42D-00C04FC964FF",
                "storeIdentifier" : "notes.json",
                "uriRepresentation" : "x-swiftdata:\\/\\/notes.json\\/JSONNote\\/6F9619FF-8B86-D011-B42D-00C04FC964FF"
              }
            },
            "tag" : null,
            "title" : "Hello"
          }
        ]
        """

    @Test func aHandWrittenSeedFileLoadsAndIsRewrittenInTheSameFormat() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        try Data(Self.handWritten.utf8).write(to: url)
        let context = ModelContext(try notesContainer(url))
        let notes = try context.fetch(FetchDescriptor<JSONNote>())
        #expect(notes.map(\.title) == ["Hello"])
        #expect(notes.map(\.created) == [Date(timeIntervalSince1970: 1_714_555_800)])
        #expect(notes.map(\.persistentModelID.storeIdentifier) == ["notes.json"])
        notes[0].title = "Hello, world"
        notes[0].created = Date(timeIntervalSince1970: 1_714_555_800.25)
        try context.save()
        let expected = Self.handWritten
            .replacingOccurrences(of: "\"Hello\"", with: "\"Hello, world\"")
            .replacingOccurrences(of: "09:30:00Z", with: "09:30:00.25Z")
        #expect(withoutChecksum(try text(of: url)) == expected)
    }

    @Test func modelsASaveDoesNotTouchAreWrittenBackByteForByte() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let other = Self.handWritten.dropFirst(2).dropLast(2)
            .replacingOccurrences(of: "6F9619FF-8B86-D011-B42D-00C04FC964FF", with: "0B5E6B4A-2C2B-4E0B-9E59-6A1B0C1D2E3F")
            .replacingOccurrences(of: "\"title\" : \"Hello\"", with: "\"title\" :   \"Hand-edited\"")
        try Data((Self.handWritten.dropLast(2) + ",\n" + other + "\n]").utf8).write(to: url)
        let context = ModelContext(try notesContainer(url))
        let notes = try context.fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["Hand-edited", "Hello"])
        notes[1].body = "changed"
        try context.save()
        let written = try text(of: url)
        #expect(written.contains("\"title\" :   \"Hand-edited\""), "the untouched model keeps its bytes")
        #expect(written.contains("\"body\" : \"changed\""))
        #expect(try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>()).count == 2)
    }

    @Test(arguments: [true, false])
    func theFileIsWhatTheSeedsEncoderWritesForTheSameSnapshots(checksum: Bool) throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        var configuration = JSONStoreConfiguration(name: "notes", url: url)
        configuration.writesChecksum = checksum
        let context = ModelContext(try ModelContainer(for: JSONNote.self, JSONTag.self, configurations: configuration))
        let tag = JSONTag(name: "work")
        context.insert(tag)
        for (index, title) in ["a", "b", "c"].enumerated() {
            context.insert(JSONNote(title: title, created: Date(timeIntervalSince1970: Double(index) * 86_400), body: index == 1 ? "x" : nil, tag: tag))
        }
        try context.save()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let file = checksum ? Data(withoutChecksum(try text(of: url)).utf8) : try Data(contentsOf: url)
        let snapshots = try decoder.decode([DefaultSnapshot].self, from: file)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(snapshots.count == 4)
        #expect(try encoder.encode(snapshots) == file)
    }

    @Test func insertedModelsGetFifteenCharacterRandomKeysInTheFilesStore() throws {
        let scratch = try ScratchDirectory()
        let context = ModelContext(try notesContainer(scratch.file("notes.json")))
        let notes = [JSONNote(title: "a"), JSONNote(title: "b")]
        for note in notes { context.insert(note) }
        try context.save()
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let keys = notes.map(\.persistentModelID.primaryKey.description)
        #expect(notes.map(\.persistentModelID.storeIdentifier) == ["notes.json", "notes.json"])
        #expect(keys.map(\.count) == [15, 15])
        #expect(keys.allSatisfy { $0.allSatisfy(alphabet.contains) })
        #expect(keys[0] != keys[1])
    }

    /// Each character takes the next six bits of a draw, lowest first: ten from the first
    /// draw, five from the second.
    @Test func aKeyIsSixBitsPerCharacterOfTwoDraws() {
        var generator = FixedDraws(values: [0, 0b111111_000001])
        #expect(ModelKey.random(using: &generator) == "AAAAAAAAAAB_AAA")
        var ones = FixedDraws(values: [.max, .max])
        #expect(ModelKey.random(using: &ones) == "_______________")
    }

    /// A generator answering the given values in turn.
    struct FixedDraws: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    /// The blog's store archives `[PersistentIdentifier: DefaultSnapshot]` with a default
    /// `JSONEncoder` (keys and snapshots alternating, dates as seconds since 2001) and never
    /// replaces the temporary identifiers.
    @Test func theBlogStoresArchiveWithTemporaryIdentifiersLoadsAndStaysEditable() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("pixar.json")
        let first = #"{"implementation":{"entityName":"JSONNote","isTemporary":true,"primaryKey":"A1","uriRepresentation":"x-swiftdata://temporary/JSONNote/A1"}}"#
        let second = #"{"implementation":{"entityName":"JSONNote","isTemporary":true,"primaryKey":"B2","uriRepresentation":"x-swiftdata://temporary/JSONNote/B2"}}"#
        let archive = "[\(first),{\"persistentIdentifier\":\(first),\"title\":\"Up\",\"created\":86400,\"body\":null,\"tag\":null},"
            + "\(second),{\"persistentIdentifier\":\(second),\"title\":\"Coco\",\"created\":0.5,\"body\":\"x\",\"tag\":null}]"
        try Data(archive.utf8).write(to: url)

        let context = ModelContext(try notesContainer(url))
        let notes = try context.fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["Coco", "Up"])
        #expect(notes.map(\.created) == [Date(timeIntervalSinceReferenceDate: 0.5), Date(timeIntervalSinceReferenceDate: 86_400)])
        #expect(notes.map(\.persistentModelID.storeIdentifier) == [nil, nil])
        let identifiers = notes.map(\.persistentModelID)
        notes[1].body = "updated"
        context.delete(notes[0])
        try context.save()

        let reopened = try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>())
        #expect(reopened.map(\.title) == ["Up"])
        #expect(reopened.map(\.body) == ["updated"])
        #expect(reopened.map(\.persistentModelID) == [identifiers[1]], "the archived identifier keeps working")
    }

    @Test(arguments: [
        0, 0.25, -0.5, -1_000_000_000.5, 757_382_400.123_456_7, 1e-7, 86_400.000_001,
        Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate,
    ])
    func iso8601DatesReadBackExactly(_ seconds: TimeInterval) throws {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let text = DateCoding.iso8601String(date)
        #expect(DateCoding.date(fromISO8601: text) == date, "\(text)")
    }

    @Test func iso8601TextIsTheSeedsForWholeSecondsAndAddsOnlyTheNeededDigits() {
        #expect(DateCoding.iso8601String(Date(timeIntervalSince1970: 1_714_555_800)) == "2024-05-01T09:30:00Z")
        #expect(DateCoding.iso8601String(Date(timeIntervalSince1970: 1_714_555_800.5)) == "2024-05-01T09:30:00.5Z")
        #expect(DateCoding.iso8601String(Date(timeIntervalSinceReferenceDate: -0.5)) == "2000-12-31T23:59:59.5Z")
        #expect(DateCoding.iso8601String(Date(timeIntervalSinceReferenceDate: 1e-7)) == "2001-01-01T00:00:00.0000001Z")
        #expect(DateCoding.date(fromISO8601: "2024-05-01T11:30:00.5+02:00") == Date(timeIntervalSince1970: 1_714_555_800.5))
    }

    /// The day after the Gregorian switch of 1582, before and after 1970, 29 February, 9999-12-31T23:59:59.
    @Test(arguments: [-12_219_206_400, -1, 0, 951_782_400, 1_714_555_800, 253_402_300_799] as [Int64])
    func theHandWrittenISO8601TextIsFoundations(_ seconds: Int64) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let foundation = String(decoding: try encoder.encode([Date(timeIntervalSince1970: Double(seconds))]), as: UTF8.self)
        let text = try #require(ISO8601Text.string(secondsSince1970: seconds))
        #expect(foundation == "[\"\(text)\"]")
        #expect(ISO8601Text.secondsSince1970(text[...]) == seconds)
    }

    @Test func datesBeforeTheGregorianSwitchAreLeftToFoundation() {
        #expect(ISO8601Text.string(secondsSince1970: -12_219_292_800) == nil)
        #expect(ISO8601Text.secondsSince1970("1582-10-15T00:00:00Z") == nil)
        #expect(DateCoding.iso8601String(.distantPast) == "0001-01-01T00:00:00Z")
    }

    @Test func compactOutputIsOneLine() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url, formatting: .compact))
        context.insert(JSONNote(title: "a"))
        context.insert(JSONNote(title: "b"))
        try context.save()
        let written = try text(of: url)
        #expect(!written.contains("\n"))
        #expect(written.hasPrefix("[{\"body\":null,\"created\":\"2001-01-01T00:00:00Z\",\"persistentIdentifier\":{"))
    }

    @Test func anEmptiedStoreWritesAnEmptyArray() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let container = try notesContainer(url)
        let context = ModelContext(container)
        context.insert(JSONNote(title: "a"))
        try context.save()
        try container.erase()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let file = Data(withoutChecksum(try text(of: url)).utf8)
        #expect(file == (try encoder.encode([DefaultSnapshot]())))
        #expect(try JSONDecoder().decode([DefaultSnapshot].self, from: file).isEmpty)
    }
}
