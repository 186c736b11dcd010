import Foundation

/// A reader of JSON straight from its bytes, for the forms our own writers produce
/// (``RowsReader``, ``QueryRequestReader``). Anything else throws ``UnexpectedJSON``, and the
/// caller decodes the body with `JSONDecoder`, whose errors say what is wrong.
protocol JSONScanning {
    var bytes: [UInt8] { get }
    var offset: Int { get set }
}

/// Not the form a ``JSONScanning`` reader expects; the body is decoded the slow way.
struct UnexpectedJSON: Error {}

extension JSONScanning {
    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    mutating func expect(_ token: Unicode.Scalar) throws {
        skipWhitespace()
        guard peek == UInt8(ascii: token) else { throw UnexpectedJSON() }
        offset += 1
    }

    /// Whether the next token is `token` (a punctuation mark or a literal), consuming it if so.
    mutating func next(_ token: StaticString) throws -> Bool {
        skipWhitespace()
        return consume(token)
    }

    /// Whether the bytes at the offset are `token`, consuming them if so; no whitespace first.
    private mutating func consume(_ token: StaticString) -> Bool {
        let count = token.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for index in 0..<count where bytes[offset + index] != token.utf8Start[index] { return false }
        offset += count
        return true
    }

    /// An object's key and its colon.
    mutating func key() throws -> String {
        let key = try string()
        try expect(":")
        return key
    }

    mutating func strings() throws -> [String] {
        try expect("[")
        var strings: [String] = []
        if try next("]") { return strings }
        repeat { strings.append(try string()) } while try next(",")
        try expect("]")
        return strings
    }

    /// A JSON string, its escapes resolved.
    mutating func string() throws -> String {
        try expect("\"")
        let start = offset
        var ascii = true
        // Most strings have no escape: their bytes are the text.
        while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw UnexpectedJSON() }
            ascii = ascii && byte < 0x80
            offset += 1
        }
        guard peek != nil else { throw UnexpectedJSON() }
        var text = bytes[start..<offset]
        if peek == UInt8(ascii: "\"") {
            offset += 1
            // ASCII is valid UTF-8 as it is: decoding it skips the generic validation.
            if ascii { return text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
            return try Self.validUTF8(text)
        }
        var utf8 = Array(text)
        while let byte = peek, byte != UInt8(ascii: "\"") {
            offset += 1
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw UnexpectedJSON() }
                utf8.append(byte)
                continue
            }
            guard let escaped = peek else { throw UnexpectedJSON() }
            offset += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
            default: throw UnexpectedJSON()
            }
        }
        try expect("\"")
        text = utf8[...]
        return try Self.validUTF8(text)
    }

    private static func validUTF8(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw UnexpectedJSON() }
        return text
    }

    /// The UTF-8 of a `\u` escape (its `\u` read), a surrogate pair's two escapes together.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var value = try hexQuad()
        if (0xD800..<0xDC00).contains(value) {
            guard consume("\\u") else { throw UnexpectedJSON() }
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw UnexpectedJSON() }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw UnexpectedJSON() }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
        else { throw UnexpectedJSON() }
        offset += 4
        return value
    }

    /// A number's text, as JSON's grammar has it: `-`, then `0` or digits not starting with `0`,
    /// then an optional fraction and exponent.
    mutating func number() throws -> String {
        skipWhitespace()
        let start = offset
        _ = consume("-")
        if !consume("0") { try digits() }
        if consume(".") { try digits() }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            try digits()
        }
        return bytes[start..<offset].withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// One or more decimal digits.
    private mutating func digits() throws {
        let start = offset
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
        guard offset > start else { throw UnexpectedJSON() }
    }

    /// Moves past one value of any kind, strings' brackets and quotes included.
    mutating func skipValue() throws {
        skipWhitespace()
        var depth = 0
        repeat {
            guard let byte = peek else { throw UnexpectedJSON() }
            switch byte {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                offset += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard depth > 0 else { throw UnexpectedJSON() }
                depth -= 1
                offset += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard depth > 0 else { throw UnexpectedJSON() }
                offset += 1
            default:
                offset += 1
            }
            skipWhitespace()
        } while depth > 0
    }

    /// The next value, whatever it is, decoded by `decoder` on its own.
    mutating func decoded<Value: Decodable>(_ type: Value.Type, with decoder: JSONDecoder) throws -> Value {
        skipWhitespace()
        let start = offset
        try skipValue()
        return try decoder.decodeChecked(type, from: Data(bytes[start..<offset]))
    }

    /// A number, or a non-finite one spelled as the wire spells it (``WireCoding``); a number
    /// too large for `Value` is left to `JSONDecoder`, which refuses it.
    mutating func floatingPoint<Value: BinaryFloatingPoint & LosslessStringConvertible>(_: Value.Type) throws -> Value {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else {
            guard let value = Value(try number()), value.isFinite else { throw UnexpectedJSON() }
            return value
        }
        switch try string() {
        case "nan": return .nan
        case "+infinity": return .infinity
        case "-infinity": return -.infinity
        default: throw UnexpectedJSON()
        }
    }
}
