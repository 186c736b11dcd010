import Foundation

/// The checksum a store file ends with, `{"crc32c":"1a2b3c4d"}` as the last element of its
/// array: the CRC-32C (Castagnoli) of every byte of the file but the eight hex digits. A CRC-32
/// detects every error of up to 32 consecutive bits, so any bit flip is caught; a truncated file
/// no longer ends in the element, and no longer parses.
///
/// A file without the element (the seeds', a hand-written one, one whose element was removed
/// after editing it by hand) is read as it is.
enum FileChecksum {
    static let opening = Data(#"{"crc32c":""#.utf8)
    static let closing = Data(#""}"#.utf8)
    /// The element's length: opening, eight digits, closing.
    static var elementLength: Int { opening.count + 8 + closing.count }

    enum Verdict: Equatable {
        /// The file ends in a checksum element that matches it.
        case verified
        /// The file has no checksum element.
        case absent
        /// The file's end holds a checksum element that does not match it, or is malformed.
        case mismatch
    }

    /// The element for a file that is `head` (everything before the digits' place, the opening
    /// included) and `tail` (everything after them): head and tail enclose the element.
    static func digits(head: Data, tail: Data) -> Data {
        var crc = CRC32C()
        crc.update(head)
        crc.update(tail)
        return Data(String(format: "%08x", crc.value).utf8)
    }

    /// Whether `bytes` carries a checksum that matches. A file whose last 64 bytes name
    /// `"crc32c"` claims one, so damage to the element itself is a mismatch, not an absence.
    static func verify(_ bytes: Data) -> Verdict {
        guard bytes.suffix(64).range(of: Data(#""crc32c""#.utf8)) != nil else { return .absent }
        // The element is followed by the array's end: "]", or "\n]" when pretty-printed.
        for closingArray in [Data("]".utf8), Data("\n]".utf8)] where bytes.count >= elementLength + closingArray.count {
            let start = bytes.endIndex - closingArray.count - elementLength
            let digitsStart = start + opening.count
            let digitsEnd = digitsStart + 8
            guard bytes[start..<digitsStart] == opening, bytes[digitsEnd...].starts(with: closing),
                  bytes[(digitsEnd + closing.count)...] == closingArray else { continue }
            return digits(head: bytes[..<digitsStart], tail: bytes[digitsEnd...]) == bytes[digitsStart..<digitsEnd] ? .verified : .mismatch
        }
        return .mismatch
    }
}

/// CRC-32C, eight bytes a step (slicing-by-8): eight 256-entry tables, one after the other.
struct CRC32C {
    private(set) var value: UInt32 = 0
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    mutating func update(_ bytes: Data) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            var index = 0
            let count = buffer.count
            while count - index >= 8 {
                let word = crc ^ buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian
                let next = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int(word >> 24)]
                    ^ table[3 * 256 + Int(next & 0xFF)] ^ table[2 * 256 + Int((next >> 8) & 0xFF)]
                    ^ table[256 + Int((next >> 16) & 0xFF)] ^ table[Int(next >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(buffer[index])) & 0xFF)]
                index += 1
            }
        }
        value = ~crc
    }
}
