import Foundation

/// Finds where a file stops being JSON, and what was expected there: Foundation's decoder on Linux
/// reports only "not valid JSON", and a user fixing a hand-edited file needs the line and column.
/// Only run after decoding failed, so its speed does not matter.
struct JSONSyntaxScanner {
    struct Failure: Error, Equatable {
        let line: Int
        let column: Int
        let expected: String
        let found: String

        var description: String { "at line \(line), column \(column): expected \(expected), found \(found)" }
    }

    private let bytes: [UInt8]
    private var offset = 0

    /// The first syntax error of `data`, or nil when it is well-formed JSON.
    static func firstError(in data: Data) -> Failure? {
        var scanner = JSONSyntaxScanner(bytes: Array(data))
        do throws(Failure) {
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.offset < scanner.bytes.count { throw scanner.failure("the end of the file after the top-level value") }
            return nil
        } catch {
            return error
        }
    }

    /// The byte ranges of the top-level array's elements, or nil when `data` is not a JSON array.
    static func topLevelElements(of data: Data) -> [Range<Int>]? {
        var scanner = JSONSyntaxScanner(bytes: Array(data))
        var ranges: [Range<Int>] = []
        do throws(Failure) {
            scanner.skipWhitespace()
            guard scanner.peek == UInt8(ascii: "[") else { return nil }
            scanner.offset += 1
            scanner.skipWhitespace()
            if scanner.peek == UInt8(ascii: "]") { return [] }
            while true {
                scanner.skipWhitespace()
                let start = scanner.offset
                try scanner.value(depth: 1)
                ranges.append(start..<scanner.offset)
                scanner.skipWhitespace()
                guard let next = scanner.peek else { return nil }
                scanner.offset += 1
                if next == UInt8(ascii: "]") { return ranges }
                guard next == UInt8(ascii: ",") else { return nil }
            }
        } catch {
            return nil
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value(depth: Int) throws(Failure) {
        skipWhitespace()
        guard depth < 512 else { throw failure("at most 512 levels of nesting") }
        guard let byte = peek else { throw failure("a value") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), depth: depth, keyed: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), depth: depth, keyed: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func container(close: UInt8, depth: Int, keyed: Bool) throws(Failure) {
        offset += 1
        skipWhitespace()
        if peek == close { offset += 1; return }
        while true {
            if keyed {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { throw failure("a key in double quotes") }
                try string()
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw failure("':' after the key") }
                offset += 1
            }
            try value(depth: depth + 1)
            skipWhitespace()
            guard let next = peek else { throw failure("',' or '\(Character(UnicodeScalar(close)))'") }
            offset += 1
            if next == close { return }
            guard next == UInt8(ascii: ",") else { offset -= 1; throw failure("',' or '\(Character(UnicodeScalar(close)))'") }
        }
    }

    private mutating func string() throws(Failure) {
        offset += 1
        while let byte = peek {
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard let escaped = peek, Array("\"\\/bfnrtu".utf8).contains(escaped) else { throw failure("an escape such as \\n or \\u0041") }
                offset += 1
            case 0..<0x20: offset -= 1; throw failure("no control character inside a string (escape it)")
            default: continue
            }
        }
        throw failure("the closing '\"' of the string")
    }

    private mutating func number() throws(Failure) {
        let start = offset
        while let byte = peek, Array("+-0123456789.eE".utf8).contains(byte) { offset += 1 }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard Double(text) != nil else { offset = start; throw failure("a number") }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes.count >= offset + expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
            throw failure("a value (an object, array, string, number, true, false or null)")
        }
        offset += expected.count
    }

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    /// A failure at the current offset; lines and columns count from 1, columns in characters.
    private func failure(_ expected: String) -> Failure {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        let found: String
        if offset >= bytes.count {
            found = "the end of the file"
        } else {
            let rest = String(decoding: bytes[offset..<min(offset + 12, bytes.count)], as: UTF8.self)
            found = "\"\(rest.prefix { $0 != "\n" })\""
        }
        return Failure(line: line, column: column, expected: expected, found: found)
    }
}
