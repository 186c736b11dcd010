import Foundation
import OpenSwiftData

/// A value as a filter writes it, converted to a query value once the property it is compared
/// with says which kind it must be.
enum Literal: Equatable {
    case string(String)
    case number(String)
    case date(String)
    case bool(Bool)
    case null

    /// The literal as an operand: a negative number is the negation of its magnitude, as
    /// `#Predicate` writes `-5`.
    func expression(as kind: QueryValueKind, for property: String) throws -> QueryExpression {
        if case .number(let text) = self, text.hasPrefix("-") {
            return .negate(.value(try Literal.number(String(text.dropFirst())).value(as: kind, for: property)))
        }
        return .value(try value(as: kind, for: property))
    }

    func value(as kind: QueryValueKind, for property: String) throws -> QueryValue {
        switch (kind, self) {
        case (.string, .string(let text)): return .string(text)
        case (.integer, .number(let text)):
            guard let integer = Int64(text) else { throw FilterError("\(property) holds whole numbers; \(text) is not one (or is too large).") }
            return .integer(integer)
        case (.double, .number(let text)):
            guard let double = Double(text), double.isFinite else { throw FilterError("\(property) holds numbers; \(text) is not a finite one.") }
            return .double(double)
        case (.bool, .bool(let value)): return .bool(value)
        case (.date, .date(let text)), (.date, .string(let text)):
            guard let date = DateText.parse(text) else {
                throw FilterError("\(text) is not a date; write 2026-06-01 or 2026-06-01T09:30:00Z.")
            }
            return .date(date)
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw FilterError("\(text) is not a UUID.") }
            return .uuid(uuid)
        case (_, .null): return .null
        default:
            throw FilterError("\(property) holds \(Self.describe(kind)); compare it with a value such as \(Self.example(for: kind)).")
        }
    }

    static func describe(_ kind: QueryValueKind) -> String {
        switch kind {
        case .bool: "true or false"
        case .integer: "whole numbers"
        case .double: "numbers"
        case .string: "strings"
        case .date: "dates"
        case .uuid: "UUIDs"
        case .data: "bytes"
        case .identifier: "models"
        case .array: "collections"
        }
    }

    static func example(for kind: QueryValueKind) -> String {
        switch kind {
        case .bool: "true"
        case .integer: "0"
        case .double: "0.5"
        case .string: "\"\""
        case .date: "2026-01-01"
        case .uuid: "\"00000000-0000-0000-0000-000000000000\""
        case .data, .identifier, .array: "nil"
        }
    }
}

/// Dates as the browser writes and reads them: ISO 8601, in UTC unless an offset is given; a day
/// alone is its midnight in UTC.
enum DateText {
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()) { return date }
        return nil
    }

    /// `2026-06-01T09:30:00Z`, with milliseconds when the date has them; a midnight in UTC as its
    /// day alone, `2026-06-01`, which reads back as the same date.
    static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        if seconds.truncatingRemainder(dividingBy: 86_400) == 0 { return date.formatted(Date.ISO8601FormatStyle().year().month().day()) }
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: seconds.rounded(.down) != seconds))
    }
}
