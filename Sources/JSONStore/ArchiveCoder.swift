import Foundation
import OpenSwiftData

/// Turns the file's bytes into snapshots and snapshots into the file's bytes, with the
/// configuration's formatting and date strategy.
///
/// Each snapshot is encoded on its own and kept (see ``SnapshotArchive``), so a save re-encodes
/// only the models it changed; the file is those fragments joined into the JSON array a
/// `JSONEncoder` would write for `[DefaultSnapshot]`.
struct ArchiveCoder: Sendable {
    let configuration: JSONStoreConfiguration

    /// NaN and infinities, which JSON has no numbers for, are written as these strings.
    private static let nonConformingFloats = (positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    func encode(_ snapshot: DefaultSnapshot) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = configuration.outputFormatting == .prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        let dates = configuration.dateEncoding
        encoder.dateEncodingStrategy = .custom { date, encoder in try DateCoding.encode(date, as: dates, to: encoder) }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: Self.nonConformingFloats.positiveInfinity,
            negativeInfinity: Self.nonConformingFloats.negativeInfinity, nan: Self.nonConformingFloats.nan)
        let fragment = try encoder.encode(snapshot)
        guard configuration.outputFormatting == .prettyPrinted else { return fragment }
        // One level deeper, as an element of the top-level array.
        var indented = Data("  ".utf8)
        indented.reserveCapacity(fragment.count + fragment.count / 8)
        for byte in fragment {
            indented.append(byte)
            if byte == UInt8(ascii: "\n") { indented.append(contentsOf: [0x20, 0x20]) }
        }
        return indented
    }

    /// The whole file for these fragments, in order.
    func file<Fragments: Sequence<Data>>(_ fragments: Fragments, count: Int) -> Data {
        guard count > 0 else { return Data("[\n\n]".utf8) }
        let pretty = configuration.outputFormatting == .prettyPrinted
        var file = Data(pretty ? "[\n".utf8 : "[".utf8)
        var first = true
        for fragment in fragments {
            if !first { file.append(contentsOf: pretty ? Array(",\n".utf8) : Array(",".utf8)) }
            file.append(fragment)
            first = false
        }
        file.append(contentsOf: pretty ? Array("\n]".utf8) : Array("]".utf8))
        return file
    }

    /// The snapshots of a file, in file order. Reads the seeds' array of snapshots, and the
    /// blog store's archived dictionary (identifier and snapshot alternating).
    func decode(_ bytes: Data) throws -> [DefaultSnapshot] {
        let decoder = JSONDecoder()
        let dates = configuration.dateEncoding
        decoder.dateDecodingStrategy = .custom { decoder in try DateCoding.decode(as: dates, from: decoder) }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: Self.nonConformingFloats.positiveInfinity,
            negativeInfinity: Self.nonConformingFloats.negativeInfinity, nan: Self.nonConformingFloats.nan)
        return try decoder.decode([ArchiveElement].self, from: bytes).compactMap(\.snapshot)
    }
}

/// One element of the file's top-level array.
private struct ArchiveElement: Decodable {
    let snapshot: DefaultSnapshot?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(Key(stringValue: "persistentIdentifier")) {
            snapshot = try DefaultSnapshot(from: decoder)
        } else if container.contains(Key(stringValue: "implementation")) {
            snapshot = nil  // The blog store's dictionary key; its snapshot follows.
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "Expected a snapshot: an object with a \"persistentIdentifier\" key and one key per model property."))
        }
    }
}
