import Foundation
import OpenSwiftData

/// The items the checks store: edge values of every attribute kind (extreme integers, NaN,
/// infinities, signed zero, dates before 1970 and far from now, fractions of a second,
/// canonically equivalent strings, empty and binary data), nils, and ties on most properties.
/// `small` is unique and gives each item its place in the list.
enum ConformanceFixtures {
    static let uuids = (0..<4).map { n in UUID(uuid: (UInt8(n), 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(n))) }

    static func items() -> [ConformanceItem] {
        [
            ConformanceItem(name: "Paris", notes: "beach", count: 3, rating: 4, small: 0, big: 7, price: 1.5, discount: 0.25,
                            weight: 0.1, isActive: true, flag: true, date: date(0), dueDate: date(86_400.25), uuid: uuids[0],
                            token: uuids[1], payload: Data([0, 255, 10]), tags: ["a", "b"], status: .active),
            ConformanceItem(name: "paris", notes: nil, count: -7, rating: nil, small: 1, big: .max, price: -1.5, discount: nil,
                            weight: -2.5, isActive: false, flag: nil, date: date(-1_000_000_000.5), dueDate: nil, uuid: uuids[1],
                            token: nil, payload: Data(), tags: [], status: .planned),
            ConformanceItem(name: "", notes: "", count: .max, rating: 4, small: 2, big: 0, price: .infinity, discount: -0.0,
                            weight: 3, isActive: true, flag: false, date: .distantFuture, dueDate: date(-0.5), uuid: uuids[2],
                            token: uuids[2], payload: Data("hello".utf8), tags: ["x", "x"], status: .done),
            ConformanceItem(name: "café", notes: "cafe\u{301}", count: .min, rating: -100, small: 3, big: 1, price: .nan,
                            discount: .nan, weight: 0, isActive: false, flag: true, date: .distantPast, dueDate: date(1e9),
                            uuid: uuids[3], token: nil, payload: Data([1]), tags: ["é", "e\u{301}"], status: .active),
            ConformanceItem(name: "Zürich", notes: "Straße", count: 0, rating: nil, small: 4, big: 100, price: 0, discount: 100.25,
                            weight: 1e-3, isActive: true, flag: nil, date: date(757_382_400.123_456_7), dueDate: nil, uuid: uuids[0],
                            token: uuids[3], payload: Data(repeating: 7, count: 64), tags: ["日本"], status: .planned),
            ConformanceItem(name: "日本", notes: "日本語", count: 42, rating: 0, small: 5, big: 42, price: -.infinity, discount: 1e300,
                            weight: -0.0, isActive: false, flag: false, date: date(-0.5), dueDate: date(0), uuid: uuids[1],
                            token: uuids[0], payload: Data([0]), tags: ["", "x"], status: .done),
            ConformanceItem(name: "Paris", notes: "PARIS", count: 3, rating: 4, small: 6, big: 7, price: 1e300, discount: -1.5,
                            weight: 0.1, isActive: true, flag: true, date: date(0), dueDate: date(86_400), uuid: uuids[2],
                            token: nil, payload: Data([0, 255, 10]), tags: ["a"], status: .active),
            ConformanceItem(name: "🇫🇷", notes: nil, count: 1, rating: 100, small: 7, big: 3, price: 100.25, discount: nil,
                            weight: 8, isActive: false, flag: nil, date: date(86_400), dueDate: nil, uuid: uuids[3],
                            token: uuids[1], payload: Data(), tags: ["beach", "Paris", "b"], status: .planned),
            ConformanceItem(name: "Straße", notes: "ss", count: -1, rating: nil, small: 8, big: 9, price: .leastNonzeroMagnitude,
                            discount: 2, weight: .greatestFiniteMagnitude, isActive: true, flag: false, date: date(1e9),
                            dueDate: date(1e9), uuid: uuids[0], token: nil, payload: Data([9, 9]), tags: ["ß", "Straße"], status: .done),
            ConformanceItem(name: "a10", notes: "a9", count: 100, rating: 4, small: 9, big: 10, price: -1e300, discount: 0,
                            weight: 0.5, isActive: false, flag: true, date: date(-86_400 * 365 * 30), dueDate: date(86_400.25),
                            uuid: uuids[1], token: uuids[2], payload: Data([3, 2, 1]), tags: ["a", "b"], status: .active),
        ]
    }

    private static func date(_ secondsSinceReferenceDate: TimeInterval) -> Date {
        Date(timeIntervalSinceReferenceDate: secondsSinceReferenceDate)
    }

    /// Every stored value of an item, as text compared exactly (NaN equal to NaN, `-0.0` unlike
    /// `0.0`: a store keeps the sign bit, as Swift's value does). Strings compare as Swift's `==`
    /// does, by canonical equivalence; ``DataStoreConformance/Check/text`` checks their scalars.
    static func values(of item: ConformanceItem) -> [String] {
        [
            "name=\(item.name)", "notes=\(item.notes.debugDescription)",
            "count=\(item.count)", "rating=\(item.rating.debugDescription)", "small=\(item.small)", "big=\(item.big)",
            "price=\(item.price)", "discount=\(item.discount.map { "\($0)" } ?? "nil")", "weight=\(item.weight)",
            "isActive=\(item.isActive)", "flag=\(item.flag.debugDescription)",
            "date=\(item.date.timeIntervalSinceReferenceDate)", "dueDate=\(item.dueDate.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil")",
            "uuid=\(item.uuid)", "token=\(item.token.debugDescription)", "payload=\(Array(item.payload))",
            "tags=\(item.tags)", "status=\(item.status)",
        ]
    }
}
