import Foundation

/// The JSON coders both ends use. Snapshots keep Swift's own `Codable` forms (dates as seconds since
/// the reference date, data as Base64), which round-trip exactly; non-finite doubles are spelled as
/// `DataStoreQuery` spells them, because JSON has no NaN.
package enum WireCoding {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+infinity", negativeInfinity: "-infinity", nan: "nan")
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+infinity", negativeInfinity: "-infinity", nan: "nan")
        return decoder
    }

    /// The fingerprint of a message by meaning: of its encoding with sorted keys, so the same
    /// message sent with other whitespace or another key order has the same fingerprint.
    package static func fingerprint(of message: some Encodable) throws -> String {
        let encoder = encoder()
        encoder.outputFormatting = [.sortedKeys]
        return fingerprint(try encoder.encode(message))
    }

    /// FNV-1a of the bytes, as hex: tells a retried request (same bytes) from a new one that
    /// reuses its idempotency key by mistake.
    package static func fingerprint(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
