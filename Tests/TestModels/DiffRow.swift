import Foundation
import OpenSwiftData

// The rows, predicates and sorts of the differential tests, which run the same random queries
// through the SQLite store (OpenSwiftDataTests) and PostgresStore (PostgresStoreTests).

/// A row with every kind of value the stores compare: edge integers and doubles, NaN (`wild`),
/// strings that differ only by case, normalization or script, optionals and a list.
@Model public final class DiffRow {
    public var int: Int
    public var small: Int
    public var optInt: Int?
    public var double: Double
    public var wild: Double
    public var text: String
    public var optText: String?
    public var date: Date
    public var flag: Bool
    public var tags: [String]

    public init(int: Int, small: Int, optInt: Int?, double: Double, wild: Double, text: String, optText: String?, date: Date, flag: Bool, tags: [String]) {
        self.int = int
        self.small = small
        self.optInt = optInt
        self.double = double
        self.wild = wild
        self.text = text
        self.optText = optText
        self.date = date
        self.flag = flag
        self.tags = tags
    }
}

/// SplitMix64: a deterministic generator, so a failure names a seed that reproduces it.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    /// Starts the sequence at `state`, the seed a failure names.
    public init(state: UInt64) { self.state = state }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension DiffRow {
    /// The number of shapes ``randomPredicate(template:using:)`` draws from.
    public static let templateCount = 37

    static let integers: [Int] = [.min, .min + 1, -1_000_000, -7, -1, 0, 1, 2, 7, 42, 1_000_000, .max - 1, .max]
    static let doubles: [Double] = [-.infinity, -1e300, -2.5, -1, -0.0, 0.0, .leastNonzeroMagnitude, 0.1, 1, 2.5, 1e300, .infinity]
    static let wilds: [Double] = doubles + [.nan]
    static let strings: [String] = ["", " ", "a", "A", "ab", "abc", "b", "Z", "z", "\u{E9}", "e\u{301}", "e", "f", "Zürich", "zurich",
                                    "日本", "日", "🇫🇷", "ß", "SS", "%", "_", "a%b", "naïve", "Ω"]
    static let dates: [Date] = [Date(timeIntervalSince1970: -1e10), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 0),
                                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.5), Date(timeIntervalSince1970: 4e9)]

    /// 160 rows of values drawn from the tables above.
    public static func randomRows(using generator: inout SplitMix64) -> [DiffRow] {
        (0..<160).map { _ in
            DiffRow(int: integers.randomElement(using: &generator)!, small: Int.random(in: -50...50, using: &generator),
                    optInt: Bool.random(using: &generator) ? nil : integers.randomElement(using: &generator)!,
                    double: doubles.randomElement(using: &generator)!, wild: wilds.randomElement(using: &generator)!,
                    text: strings.randomElement(using: &generator)!,
                    optText: Bool.random(using: &generator) ? nil : strings.randomElement(using: &generator)!,
                    date: dates.randomElement(using: &generator)!, flag: Bool.random(using: &generator),
                    tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in strings.randomElement(using: &generator)! })
        }
    }

    /// One of ``templateCount`` predicate shapes over every property, filled with values drawn from `g`.
    public static func randomPredicate(template: Int, using g: inout SplitMix64) -> Predicate<DiffRow> {
        let i = integers.randomElement(using: &g)!, j = integers.randomElement(using: &g)!
        let k = Int.random(in: -20...20, using: &g), n = Int.random(in: 0...4, using: &g)
        let d = doubles.randomElement(using: &g)!
        let s = strings.randomElement(using: &g)!, t = strings.randomElement(using: &g)!
        let date = dates.randomElement(using: &g)!
        let list = Array(strings.shuffled(using: &g).prefix(n + 1))
        let ints = Set(integers.shuffled(using: &g).prefix(n + 1))
        switch template {
        case 0: return #Predicate { $0.int == i }
        case 1: return #Predicate { $0.int < i }
        case 2: return #Predicate { $0.int >= i && $0.int <= j }
        case 3: return #Predicate { $0.optInt == nil }
        case 4: return #Predicate { $0.optInt == i }
        case 5: return #Predicate { $0.optInt != i }
        case 6: return #Predicate { ($0.optInt ?? 0) > i }
        case 7: return #Predicate { $0.double > d }
        case 8: return #Predicate { $0.double == d }
        case 9: return #Predicate { $0.double != d }
        case 10: return #Predicate { $0.wild < d }
        case 11: return #Predicate { $0.wild != d }
        case 12: return #Predicate { $0.text == s }
        case 13: return #Predicate { $0.text < s }
        case 14: return #Predicate { $0.text.contains(s) }
        case 15: return #Predicate { $0.text.starts(with: s) }
        case 16: return #Predicate { $0.text.isEmpty }
        case 17: return #Predicate { $0.text.count > n }
        case 18: return #Predicate { $0.optText == s }
        case 19: return #Predicate { $0.optText != nil && $0.optText! > s }
        case 20: return #Predicate { $0.date < date }
        case 21: return #Predicate { $0.flag }
        case 22: return #Predicate { !$0.flag || $0.int > i }
        case 23: return #Predicate { $0.tags.contains(s) }
        case 24: return #Predicate { $0.tags.isEmpty }
        case 25: return #Predicate { $0.tags.count >= n }
        case 26: return #Predicate { list.contains($0.text) }
        case 27: return #Predicate { ints.contains($0.int) }
        case 28: return #Predicate { $0.int > i || $0.text == s }
        case 29: return #Predicate { $0.tags.contains { $0 == s } }
        case 30: return #Predicate { $0.small * 2 > k }
        case 31: return #Predicate { $0.small % 3 == k % 3 }
        case 32: return #Predicate { $0.small / 4 == k / 4 }
        case 33: return #Predicate { !($0.text >= s && $0.text <= t) }
        case 34: return #Predicate { $0.optText == nil || $0.optText == s }
        case 35: return #Predicate { ($0.flag ? $0.small : -$0.small) > k }
        default: return #Predicate { $0.text != s && ($0.double < d || $0.optInt == nil) }
        }
    }

    /// A sort on one of the properties, or none, drawn from `g`.
    public static func randomSort(using g: inout SplitMix64) -> [SortDescriptor<DiffRow>] {
        let order: SortOrder = Bool.random(using: &g) ? .forward : .reverse
        switch Int.random(in: 0...6, using: &g) {
        case 0: return []
        case 1: return [SortDescriptor(\.int, order: order)]
        case 2: return [SortDescriptor(\.text, order: order)]
        case 3: return [SortDescriptor(\.optText, order: order), SortDescriptor(\.small)]
        case 4: return [SortDescriptor(\.date, order: order)]
        case 5: return [SortDescriptor(\.double, order: order)]
        default: return [SortDescriptor(\.wild, order: order)]
        }
    }
}
