extension RowsReader {
    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    mutating func expect(_ token: Unicode.Scalar) throws {
        skipWhitespace()
        guard peek == UInt8(ascii: token) else { throw Unexpected() }
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
        // Most strings have no escape: their bytes are the text.
        while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Unexpected() }
            offset += 1
        }
        guard peek != nil else { throw Unexpected() }
        var text = bytes[start..<offset]
        if peek == UInt8(ascii: "\"") {
            offset += 1
            return try Self.validUTF8(text)
        }
        var utf8 = Array(text)
        while let byte = peek, byte != UInt8(ascii: "\"") {
            offset += 1
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw Unexpected() }
                utf8.append(byte)
                continue
            }
            guard let escaped = peek else { throw Unexpected() }
            offset += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
            default: throw Unexpected()
            }
        }
        try expect("\"")
        text = utf8[...]
        return try Self.validUTF8(text)
    }

    private static func validUTF8(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Unexpected() }
        return text
    }

    /// The UTF-8 of a `\u` escape (its `\u` read), a surrogate pair's two escapes together.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var value = try hexQuad()
        if (0xD800..<0xDC00).contains(value) {
            guard consume("\\u") else { throw Unexpected() }
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw Unexpected() }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw Unexpected() }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
        else { throw Unexpected() }
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
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// One or more decimal digits.
    private mutating func digits() throws {
        let start = offset
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
        guard offset > start else { throw Unexpected() }
    }

    /// Moves past one value of any kind, strings' brackets and quotes included.
    mutating func skipValue() throws {
        skipWhitespace()
        var depth = 0
        repeat {
            guard let byte = peek else { throw Unexpected() }
            switch byte {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                offset += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard depth > 0 else { throw Unexpected() }
                depth -= 1
                offset += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard depth > 0 else { throw Unexpected() }
                offset += 1
            default:
                offset += 1
            }
            skipWhitespace()
        } while depth > 0
    }
}
