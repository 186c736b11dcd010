import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

@Model final class PGDiffRow {
    var int: Int
    var small: Int
    var optInt: Int?
    var double: Double
    var wild: Double
    var text: String
    var optText: String?
    var date: Date
    var flag: Bool
    var tags: [String]

    init(int: Int, small: Int, optInt: Int?, double: Double, wild: Double, text: String, optText: String?, date: Date, flag: Bool, tags: [String]) {
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

/// Random predicates over random rows give the same models, in the same order, through
/// PostgreSQL as through `Predicate.evaluate` and `sort(using:)` in Swift: the SQLite store's
/// differential test (`SQLiteDifferentialTests`), on `PostgresStore`.
@Suite struct PostgresDifferentialTests {
    static let integers: [Int] = [.min, .min + 1, -1_000_000, -7, -1, 0, 1, 2, 7, 42, 1_000_000, .max - 1, .max]
    static let doubles: [Double] = [-.infinity, -1e300, -2.5, -1, -0.0, 0.0, 5e-324, 0.1, 1, 2.5, 1e300, .infinity]
    static let wilds: [Double] = doubles + [.nan]
    static let strings: [String] = ["", " ", "a", "A", "ab", "abc", "b", "Z", "z", "\u{E9}", "e\u{301}", "e", "f", "Zürich", "zurich",
                                    "日本", "日", "🇫🇷", "ß", "SS", "%", "_", "a%b", "naïve", "Ω"]
    static let dates: [Date] = [Date(timeIntervalSince1970: -1e10), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 0),
                                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.5), Date(timeIntervalSince1970: 4e9)]
    static let templates = 37
    static let rounds = 2_000

    private func rows(_ generator: inout PGSplitMix64) -> [PGDiffRow] {
        (0..<160).map { _ in
            PGDiffRow(int: Self.integers.randomElement(using: &generator)!, small: Int.random(in: -50...50, using: &generator),
                      optInt: Bool.random(using: &generator) ? nil : Self.integers.randomElement(using: &generator)!,
                      double: Self.doubles.randomElement(using: &generator)!, wild: Self.wilds.randomElement(using: &generator)!,
                      text: Self.strings.randomElement(using: &generator)!,
                      optText: Bool.random(using: &generator) ? nil : Self.strings.randomElement(using: &generator)!,
                      date: Self.dates.randomElement(using: &generator)!, flag: Bool.random(using: &generator),
                      tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.strings.randomElement(using: &generator)! })
        }
    }

    private func predicate(_ template: Int, _ g: inout PGSplitMix64) -> Predicate<PGDiffRow> {
        let i = Self.integers.randomElement(using: &g)!, j = Self.integers.randomElement(using: &g)!
        let k = Int.random(in: -20...20, using: &g), n = Int.random(in: 0...4, using: &g)
        let d = Self.doubles.randomElement(using: &g)!
        let s = Self.strings.randomElement(using: &g)!, t = Self.strings.randomElement(using: &g)!
        let date = Self.dates.randomElement(using: &g)!
        let list = Array(Self.strings.shuffled(using: &g).prefix(n + 1))
        let ints = Set(Self.integers.shuffled(using: &g).prefix(n + 1))
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

    private func sort(_ g: inout PGSplitMix64) -> [SortDescriptor<PGDiffRow>] {
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

    /// 5 seeds × 2,000 rounds: 10,000 predicates, each fetched and counted.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func sqlAndSwiftAgreeOnRandomPredicates(seed: UInt64) async throws {
        try await withBlockingWork { try compareRandomPredicates(seed: seed) }
    }

    private func compareRandomPredicates(seed: UInt64) throws {
        var generator = PGSplitMix64(state: seed)
        let configuration = try PostgresStoreConfiguration(schema: Schema([PGDiffRow.self]), url: try TestDatabase.makeDatabase("diff\(seed)\(UUID().uuidString)"))
        let container = try ModelContainer(for: PGDiffRow.self, configurations: configuration)
        let context = ModelContext(container)
        rows(&generator).forEach(context.insert)
        try context.save()
        let store = try #require(container.stores.first?.store as? PostgresStore)
        let all = try context.fetch(FetchDescriptor<PGDiffRow>())
        #expect(all.count == 160)
        var inSQL = Set<Int>()
        var mismatches: [String] = []
        for round in 0..<Self.rounds {
            let template = round % Self.templates
            var descriptor = FetchDescriptor<PGDiffRow>(predicate: predicate(template, &generator), sortBy: sort(&generator))
            if Int.random(in: 0...3, using: &generator) == 0 {
                descriptor.fetchLimit = Int.random(in: 0...30, using: &generator)
                descriptor.fetchOffset = Int.random(in: 0...10, using: &generator)
            }
            var expected = try all.filter { try descriptor.predicate!.evaluate($0) }
            expected.sort(using: descriptor.sortBy)
            expected = Array(expected.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? .max))
            let fetched = try context.fetch(descriptor)
            let count = try context.fetchCount(descriptor)
            if fetched.map(\.persistentModelID) != expected.map(\.persistentModelID) || count != expected.count {
                mismatches.append("seed \(seed), round \(round), template \(template)")
            }
            let request = DataStoreFetchRequest(editingState: EditingState(), descriptor: FetchDescriptor<PGDiffRow>(predicate: descriptor.predicate))
            if (try? store.fetchCount(request)) != nil { inSQL.insert(template) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        // Every template runs in the store: what SQL cannot compute as Swift does (Character
        // semantics of contains, starts(with:) and count; tags.contains(where:)) is tested in Swift
        // on the superset SQL selects.
        #expect(inSQL == Set(0..<Self.templates), "run in the store: \(inSQL.sorted())")
    }
}

/// A deterministic generator, so a failure names a seed that reproduces it.
struct PGSplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
