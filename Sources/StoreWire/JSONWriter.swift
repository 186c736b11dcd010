import Foundation

/// JSON text written into one byte array, spelled as `JSONEncoder` with the wire's settings
/// spells it (slashes escaped, whole doubles without `.0`), so hand-written bodies read back as
/// the encoder's do.
struct JSONWriter {
    let encoder: JSONEncoder
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

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

    mutating func encoded(_ value: some Encodable) throws {
        bytes.append(contentsOf: try encoder.encode(value))
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "/"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
