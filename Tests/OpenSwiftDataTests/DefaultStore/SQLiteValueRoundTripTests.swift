import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteValueRoundTripTests {
    private func roundTrip(_ make: () -> StoreValues) throws -> StoreValues {
        let directory = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: directory.file("values.store"))
        let context = ModelContext(try ModelContainer(for: StoreValues.self, configurations: configuration))
        context.insert(make())
        try context.save()
        let reopened = try ModelContainer(for: StoreValues.self, configurations: configuration)
        return try #require(try ModelContext(reopened).fetch(FetchDescriptor<StoreValues>()).first)
    }

    @Test func everyValueKindReadsBackAsWritten() throws {
        let values = try roundTrip {
            StoreValues(maybeText: "some", maybeInt: -4, maybeDate: Date(timeIntervalSince1970: -86_400 * 365 * 30),
                        maybeMood: .busy, maybeSpot: StoreSpot(label: "col", altitude: 2000))
        }
        #expect(values.flag == true)
        let integers: [Int] = [values.int, Int(values.int8), Int(values.int16), Int(values.int32)]
        let wide: [Int] = [Int(values.int64), Int(values.uint8), Int(values.uint), Int(values.uint64)]
        #expect(integers + wide == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(values.double == 0.5)
        #expect(values.float == 0.25)
        #expect(values.text == "text")
        #expect(values.date == Date(timeIntervalSinceReferenceDate: 1))
        #expect(values.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(values.url == URL(string: "https://example.com/a?b=c"))
        #expect(values.data == Data([1, 2, 3]))
        #expect(values.mood == .calm)
        #expect(values.level == .high)
        #expect(values.spot == StoreSpot(label: "peak", altitude: 4808.7))
        #expect(values.tags == ["a", "b"])
        #expect(values.scores == [3])
        #expect(values.table == ["x": 1.5])
        #expect(values.maybeText == "some")
        #expect(values.maybeInt == -4)
        #expect(values.maybeDate == Date(timeIntervalSince1970: -86_400 * 365 * 30))
        #expect(values.maybeMood == .busy)
        #expect(values.maybeSpot == StoreSpot(label: "col", altitude: 2000))
    }

    @Test func nilOptionalsReadBackAsNil() throws {
        let values = try roundTrip { StoreValues() }
        #expect(values.maybeText == nil)
        #expect(values.maybeInt == nil)
        #expect(values.maybeDate == nil)
        #expect(values.maybeMood == nil)
        #expect(values.maybeSpot == nil)
    }

    @Test func edgeValuesSurvive() throws {
        let values = try roundTrip {
            StoreValues(flag: false, int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint8: .max, uint: .max, uint64: .max,
                        double: .nan, float: -.infinity, text: "", date: Date(timeIntervalSince1970: -1e10), data: Data(),
                        tags: [], scores: [], table: [:], maybeText: "")
        }
        #expect(values.flag == false)
        #expect(values.int == .min)
        #expect(values.int8 == .min)
        #expect(values.int16 == .max)
        #expect(values.int32 == .min)
        #expect(values.int64 == .max)
        #expect(values.uint8 == .max)
        #expect(values.uint == .max)
        #expect(values.uint64 == .max)
        #expect(values.double.isNaN)
        #expect(values.float == -.infinity)
        #expect(values.text == "")
        #expect(values.date == Date(timeIntervalSince1970: -1e10))
        #expect(values.data == Data())
        #expect(values.tags == [])
        #expect(values.scores == [])
        #expect(values.table == [:])
        #expect(values.maybeText == "")
    }

    @Test func textReadsBackWithTheScalarsItWasWrittenWith() throws {
        let decomposed = "Cafe\u{301} \u{1F1EB}\u{1F1F7} \u{05E9}\u{05DC}\u{05D5}\u{05DD}"
        let values = try roundTrip { StoreValues(text: decomposed, tags: ["e\u{301}"]) }
        #expect(Array(values.text.unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(values.tags.map { Array($0.unicodeScalars) } == [["e", "\u{301}"]])
    }

    /// The ASCII check reads eight bytes at a time, then the rest one by one: a decomposed
    /// character in the first word, a later word, the tail, or none at all.
    @Test(arguments: ["e\u{301}abcdefghij", "abcdefghijklmne\u{301}xyz", "abcdefghijklmnopqre\u{301}", "plain ASCII text, longer than a word"])
    func textReadsBackExactlyWhereverItsFirstNonASCIIByteIs(_ text: String) throws {
        let values = try roundTrip { StoreValues(text: text) }
        #expect(Array(values.text.unicodeScalars) == Array(text.unicodeScalars))
    }

    @Test func negativeZeroReadsBackEqualToZero() throws {
        let values = try roundTrip { StoreValues(double: -0.0, float: -0.0) }
        #expect(values.double == 0)
        #expect(values.float == 0)
    }
}
