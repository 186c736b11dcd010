import Foundation
import OpenSwiftData

/// The `Date` forms of ``JSONStoreConfiguration/DateEncoding``. Reading accepts ISO 8601 text
/// (with or without a fraction of a second, in any time zone) and numbers, so files written by the
/// seeds (`.iso8601`, whole seconds) and by Foundation's default coder (seconds since 2001) load.
enum DateCoding {
    /// Refuses a date no store keeps (``StorableValues``), also inside a Codable value: ISO 8601
    /// text cannot spell it, and it would not read back the same.
    static func encode(_ date: Date, as encoding: JSONStoreConfiguration.DateEncoding, to encoder: any Encoder) throws {
        if let problem = StorableValues.problem(with: date) {
            throw EncodingError.invalidValue(date, .init(codingPath: encoder.codingPath, debugDescription: problem))
        }
        var container = encoder.singleValueContainer()
        switch encoding {
        case .iso8601: try container.encode(iso8601String(date))
        case .secondsSinceReferenceDate: try container.encode(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: try container.encode(date.timeIntervalSince1970)
        }
    }

    /// Refuses a date no store keeps (``StorableValues``), so a hand-edited file cannot load one.
    static func decode(as encoding: JSONStoreConfiguration.DateEncoding, from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            let date = encoding == .secondsSince1970
                ? Date(timeIntervalSince1970: seconds) : Date(timeIntervalSinceReferenceDate: seconds)
            if let problem = StorableValues.problem(with: date) {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: problem)
            }
            return date
        }
        let text = try container.decode(String.self)
        guard let date = date(fromISO8601: text), StorableValues.isStorable(date) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription:
                "Expected a date as ISO 8601 text such as \"2024-05-01T09:30:00Z\", or as a number of seconds; found \"\(text)\".")
        }
        return date
    }

    /// Whole seconds as the seeds write them; a fraction is appended with the shortest digits that
    /// read back to the same `Date`, since dates are `Double` seconds since 2001. Only for a
    /// storable date (``StorableValues/isStorable(_:)``), whose seconds fit an `Int64`.
    static func iso8601String(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        let whole = interval.rounded(.down)
        let wholeDate = Date(timeIntervalSinceReferenceDate: whole)
        let wholeText = ISO8601Text.string(secondsSince1970: Int64(wholeDate.timeIntervalSince1970))
            ?? formatter.string(from: wholeDate)
        let fraction = interval - whole  // exact: both lie within one binade of `interval`
        guard fraction > 0, wholeText.hasSuffix("Z") else { return wholeText }
        return wholeText.dropLast() + fractionDigits(fraction) + "Z"
    }

    static func date(fromISO8601 text: String) -> Date? {
        guard let dot = text.firstIndex(of: "."), text.distance(from: text.startIndex, to: dot) == 19 else {
            return wholeSeconds(text[...])
        }
        let digitsEnd = text[text.index(after: dot)...].firstIndex { !$0.isASCII || !$0.isNumber } ?? text.endIndex
        guard digitsEnd > text.index(after: dot), let fraction = Double("0" + text[dot..<digitsEnd]),
              let whole = wholeSeconds(text[..<dot] + text[digitsEnd...]) else { return nil }
        return Date(timeIntervalSinceReferenceDate: whole.timeIntervalSinceReferenceDate + fraction)
    }

    private static func wholeSeconds<S: StringProtocol>(_ text: S) -> Date? {
        if let seconds = ISO8601Text.secondsSince1970(Substring(text)) {
            // Exact: whole seconds since 1970 and since 2001 differ by a whole number.
            return Date(timeIntervalSince1970: Double(seconds))
        }
        return formatter.date(from: String(text))
    }

    /// `".25"` for 0.25: Swift's shortest round-tripping digits, without exponent notation.
    private static func fractionDigits(_ fraction: Double) -> String {
        let text = "\(fraction)"
        guard let e = text.firstIndex(of: "e") else { return String(text.dropFirst()) }
        let mantissa = text[..<e].replacingOccurrences(of: ".", with: "")
        let exponent = Int(text[text.index(after: e)...])!
        return "." + String(repeating: "0", count: -exponent - 1) + mantissa
    }

    // ISO8601DateFormatter is thread-safe; `.withInternetDateTime` is what `.iso8601` coding uses.
    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = .withInternetDateTime
        return formatter
    }()
}
