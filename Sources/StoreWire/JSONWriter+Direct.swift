import Foundation
import OpenSwiftData

/// The wire's own spellings: values of the common types written directly, as `JSONEncoder` with
/// the wire's settings writes them (whole doubles without `.0`, non-finite numbers as text).
extension JSONWriter {
    /// The types rows mostly hold, which are written directly. A column's values are of one type,
    /// so a writer remembers each column's kind and tries that one cast first.
    enum DirectKind {
        case string, int, double, bool, date, uuid, int64, int32, float

        /// The order an unknown value's type is looked for in, the commonest first.
        static let searchOrder: [DirectKind] = [.string, .int, .double, .bool, .date, .uuid, .int64, .int32, .float]
    }

    /// A value of a common type as `JSONEncoder` with the wire's settings would write it; false
    /// for any other type. `kind` is the kind its column's last value had, updated to this one's.
    mutating func direct(_ value: Any, kind: inout DirectKind?) -> Bool {
        if let known = kind, direct(value, as: known) { return true }
        for candidate in DirectKind.searchOrder where candidate != kind {
            if direct(value, as: candidate) {
                kind = candidate
                return true
            }
        }
        return false
    }

    private mutating func direct(_ value: Any, as kind: DirectKind) -> Bool {
        switch kind {
        case .string:
            guard let text = value as? String else { return false }
            string(text)
        case .int:
            guard let integer = value as? Int else { return false }
            append(String(integer))
        case .double:
            guard let number = value as? Double else { return false }
            floatingPoint(number)
        case .bool:
            guard let flag = value as? Bool else { return false }
            append(flag ? "true" : "false")
        case .date:
            guard let date = value as? Date else { return false }
            floatingPoint(date.timeIntervalSinceReferenceDate)
        case .uuid:
            guard let uuid = value as? UUID else { return false }
            string(uuid.canonicalString)
        case .int64:
            guard let integer = value as? Int64 else { return false }
            append(String(integer))
        case .int32:
            guard let integer = value as? Int32 else { return false }
            append(String(integer))
        case .float:
            guard let number = value as? Float else { return false }
            floatingPoint(number)
        }
        return true
    }

    /// Non-finite numbers as the wire spells them (``WireCoding``): JSON has no NaN.
    mutating func floatingPoint(_ number: some BinaryFloatingPoint & CustomStringConvertible) {
        guard number.isFinite else { return string(number.isNaN ? "nan" : number > 0 ? "+infinity" : "-infinity") }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }
}
