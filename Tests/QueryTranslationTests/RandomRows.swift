import Foundation
import OpenSwiftData
import TestModels

/// Values chosen for the places Swift and stores tend to disagree: case, diacritics, canonical
/// equivalence, grapheme clusters, NaN, signed zero, extreme integers, dates before 1970.
enum RandomRows {
    static let strings = [
        "", " ", "a", "A", "b", "x", "ab", "abc", "ABC", "Pa", "Paris", "paris", "PARIS", "Rome", "beach",
        "é", "e\u{301}", "E", "e", "café", "CAFE", "cafe\u{301}", "Ü", "ü", "u", "Zürich", "zurich",
        "日本", "日本語", "本", "ß", "SS", "ss", "Straße", "strasse", "q\u{303}", "q", "🇫🇷", "🇫🇷🇩🇪", "🇷🇩",
        "Æ", "æ", "ǅ", "dž", "İ", "i", "ﬁ", "fi", "a10", "a9",
    ]
    static let integers: [Int] = [.min, .max, .min + 1, .max - 1, -100, -7, -1, 0, 1, 2, 3, 5, 7, 42, 100]
    static let doubles: [Double] = [.nan, -0.0, 0.0, 1.5, -1.5, 2, 3, 10, 100.25, .infinity, -.infinity, 1e300, -1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
    static let dates: [Date] = [
        Date(timeIntervalSince1970: -86_400 * 365 * 30), Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: 0),
        Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 86_400), Date(timeIntervalSinceReferenceDate: 86_400.25),
        .distantPast, .distantFuture,
    ]
    static let tagLists: [[String]] = [[], ["a"], ["a", "b"], ["é", "e\u{301}"], ["日本"], ["", "x"], ["beach", "Paris", "b"], ["x", "x"], ["ß", "Straße"]]
    static let uuids = (0..<4).map { Fixtures.uuid(UInt8($0)) }

    static func string(_ generator: inout SplitMix64) -> String { strings.randomElement(using: &generator)! }
    static func integer(_ generator: inout SplitMix64) -> Int { integers.randomElement(using: &generator)! }
    static func double(_ generator: inout SplitMix64) -> Double { doubles.randomElement(using: &generator)! }
    static func date(_ generator: inout SplitMix64) -> Date { dates.randomElement(using: &generator)! }
    static func small(_ generator: inout SplitMix64) -> Int { Int.random(in: -3...3, using: &generator) }
    static func bool(_ generator: inout SplitMix64) -> Bool { Bool.random(using: &generator) }

    static func optional<T>(_ generator: inout SplitMix64, _ value: (inout SplitMix64) -> T) -> T? {
        Int.random(in: 0..<4, using: &generator) == 0 ? nil : value(&generator)
    }

    static func make(_ generator: inout SplitMix64, key: Int64) -> TripRow {
        TripRow(
            persistentModelID: Fixtures.tripID(key),
            name: string(&generator),
            destination: string(&generator),
            startDate: date(&generator),
            notes: optional(&generator, string),
            budget: double(&generator),
            discount: optional(&generator, double),
            nights: integer(&generator),
            rating: optional(&generator) { Int.random(in: -100...100, using: &$0) },
            isFavorite: bool(&generator),
            tags: tagLists.randomElement(using: &generator)!,
            status: Status.allCases.randomElement(using: &generator)!,
            id: uuids.randomElement(using: &generator)!
        )
    }
}
