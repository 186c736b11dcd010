import Foundation

extension UUID {
    /// `uuidString` (upper-case hex, 8-4-4-4-12), written directly: Foundation formats each byte
    /// with `snprintf`, and an insert writes one for every UUID column.
    package var canonicalString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    buffer[position] = Self.hexDigit(byte >> 4)
                    buffer[position + 1] = Self.hexDigit(byte & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    /// `UUID(uuidString:)` for the canonical 36-character form, parsed directly (Foundation's
    /// general parser is far slower); any other text goes to Foundation, so exactly the
    /// same texts are accepted.
    package init?(canonicalString text: String) {
        if let parsed = text.utf8.withContiguousStorageIfAvailable(Self.parse), let uuid = parsed {
            self = uuid
        } else if let uuid = UUID(uuidString: text) {
            self = uuid
        } else {
            return nil
        }
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(text[position]), let low = hexValue(text[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: bytes) : nil
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// Comparisons, not a `switch` over ranges: a range pattern calls `~=` through
    /// `RangeExpression.contains` for every digit, uninlined.
    private static func hexValue(_ digit: UInt8) -> UInt8? {
        if digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") { return digit - UInt8(ascii: "0") }
        let upper = digit & 0xDF
        if upper >= UInt8(ascii: "A") && upper <= UInt8(ascii: "F") { return upper - UInt8(ascii: "A") + 10 }
        return nil
    }
}
