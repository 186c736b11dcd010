import Foundation
import OpenSwiftData

/// Turns the file's bytes into snapshots and snapshots into the file's bytes, with the
/// configuration's formatting and date strategy.
///
/// Each snapshot is encoded on its own and kept (see ``SnapshotArchive``), so a save re-encodes
/// only the models it changed; the file is those fragments joined into the JSON array a
/// `JSONEncoder` would write for `[DefaultSnapshot]`.
final class ArchiveCoder: @unchecked Sendable {
    let configuration: JSONStoreConfiguration
    // Made once: a coder per snapshot would dominate the cost of a save. Used under the store's lock.
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// NaN and infinities, which JSON has no numbers for, are written as these strings.
    private static let nonConformingFloats = (positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    init(configuration: JSONStoreConfiguration) {
        self.configuration = configuration
        let dates = configuration.dateEncoding
        let floats = Self.nonConformingFloats
        encoder.outputFormatting = configuration.outputFormatting == .prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in try DateCoding.encode(date, as: dates, to: encoder) }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        decoder.dateDecodingStrategy = .custom { decoder in try DateCoding.decode(as: dates, from: decoder) }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
    }

    func encode(_ snapshot: DefaultSnapshot) throws -> Data {
        try encodeElement(snapshot)
    }

    /// The element that keeps a store's ``StoredSchema``, first in the array of a store opened
    /// with a migration plan (the seeds' files have none).
    func encode(_ record: StoredSchema) throws -> Data {
        try encodeElement(ArchiveRecord(schemaRecord: record))
    }

    /// The element that keeps a store's history, last in the array of a store that keeps it.
    func encode(_ history: HistoryBook) throws -> Data {
        arrayElement(try HistoryJSONWriter(encoder: encoder, pretty: configuration.outputFormatting == .prettyPrinted).json(history))
    }

    /// The history element as the encoder writes it, for tests of ``HistoryJSONWriter``.
    func encodeWithEncoderForTesting(_ history: HistoryBook) throws -> Data {
        try encodeElement(ArchiveHistory(history: history))
    }

    /// The history a file keeps, from its last element before the checksum; nil when it keeps none.
    func history(in bytes: Data) throws -> HistoryBook? {
        guard let elements = JSONSyntaxScanner.topLevelElements(of: bytes), var last = elements.last else { return nil }
        if bytes[last].starts(with: FileChecksum.opening) {
            guard elements.count > 1 else { return nil }
            last = elements[elements.count - 2]
        }
        let element = Data(bytes[last])
        // A snapshot (one may have a property named "history") is never the history element.
        guard element.prefix(64).range(of: Data(#""history""#.utf8)) != nil,
              element.range(of: Data(#""persistentIdentifier""#.utf8)) == nil else { return nil }
        return try decoder.decodeChecked(ArchiveHistory.self, from: element).history
    }

    /// One snapshot from its JSON object, with this configuration's strategies.
    func decodeSnapshot(_ json: Data) throws -> DefaultSnapshot {
        try decoder.decodeChecked(DefaultSnapshot.self, from: json)
    }

    /// The record a file keeps, from its first element; nil for the seeds' files.
    func record(in bytes: Data) throws -> StoredSchema? {
        // Written first, so a file without it near the start has none: no need to scan it all.
        guard bytes.prefix(32).range(of: Data(#""schemaRecord""#.utf8)) != nil,
              let first = JSONSyntaxScanner.topLevelElements(of: bytes)?.first,
              let element = try? decoder.decodeChecked(ArchiveRecord.self, from: Data(bytes[first])) else { return nil }
        return element.schemaRecord
    }

    private func encodeElement(_ value: some Encodable) throws -> Data {
        arrayElement(try encoder.encode(value))
    }

    /// `fragment` as an element of the file's array: pretty-printed, one level deeper.
    private func arrayElement(_ fragment: Data) -> Data {
        guard configuration.outputFormatting == .prettyPrinted else { return fragment }
        // One level deeper, as an element of the top-level array.
        var indented: [UInt8] = [0x20, 0x20]
        indented.reserveCapacity(fragment.count + fragment.count / 4)
        fragment.withUnsafeBytes { bytes in
            for byte in bytes {
                indented.append(byte)
                if byte == UInt8(ascii: "\n") { indented.append(contentsOf: [0x20, 0x20]) }
            }
        }
        return Data(indented)
    }

    /// The whole file for these fragments, in order, ending in its checksum (``FileChecksum``)
    /// unless the configuration writes none.
    func file<Fragments: Sequence<Data>>(_ fragments: Fragments, count: Int) -> Data {
        let pretty = configuration.outputFormatting == .prettyPrinted
        let separator = Data((pretty ? ",\n" : ",").utf8)
        let end = Data((pretty ? "\n]" : "]").utf8)
        guard count > 0 || configuration.writesChecksum else { return Data((pretty ? "[\n\n]" : "[]").utf8) }
        var file = Data(pretty ? "[\n".utf8 : "[".utf8)
        var first = true
        for fragment in fragments {
            if !first { file.append(separator) }
            file.append(fragment)
            first = false
        }
        guard configuration.writesChecksum else { return file + end }
        if !first { file.append(separator) }
        if pretty { file.append(contentsOf: Array("  ".utf8)) }
        file.append(FileChecksum.opening)
        let tail = FileChecksum.closing + end
        file.append(FileChecksum.digits(head: file, tail: tail))
        return file + tail
    }

    /// The snapshots of a file, in file order. Reads the seeds' array of snapshots, and the
    /// blog store's archived dictionary (identifier and snapshot alternating).
    /// The snapshots of a file in file order, each with its bytes as read when the file is laid
    /// out as this configuration writes (so the first save need not encode every model again).
    func decode(_ bytes: Data) throws -> [(snapshot: DefaultSnapshot, json: Data?)] {
        let elements = try decoder.decodeChecked([ArchiveElement].self, from: bytes)
        let fragments = reusableFragments(of: bytes, count: elements.count)
        return elements.indices.compactMap { index in
            elements[index].snapshot.map { ($0, fragments?[index]) }
        }
    }

    /// A model's bytes are reused only when the file has this configuration's layout: then a file
    /// the store wrote is written back byte for byte, except for the models a save changed.
    private func reusableFragments(of bytes: Data, count: Int) -> [Data]? {
        let pretty = configuration.outputFormatting == .prettyPrinted
        guard bytes.starts(with: Array((pretty ? "[\n  {\n    \"" : "[{\"").utf8)),
              let ranges = JSONSyntaxScanner.topLevelElements(of: bytes), ranges.count == count else { return nil }
        let indent = Data("  ".utf8)
        return ranges.map { range in pretty ? indent + bytes[range] : Data(bytes[range]) }
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
        } else if container.contains(Key(stringValue: "history")) {
            snapshot = nil  // The store's history (``ArchiveHistory``), read on its own.
        } else if container.contains(Key(stringValue: "schemaRecord")) {
            snapshot = nil  // The store's record (``ArchiveRecord``), read on its own.
        } else if container.contains(Key(stringValue: "crc32c")) {
            snapshot = nil  // The file's checksum (``FileChecksum``), checked before decoding.
        } else if container.contains(Key(stringValue: "implementation")) {
            snapshot = nil  // The blog store's dictionary key; its snapshot follows.
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "Expected a snapshot: an object with a \"persistentIdentifier\" key and one key per model property."))
        }
    }
}

/// The array element holding the store's history: `{"history": {…}}`.
struct ArchiveHistory: Codable {
    let history: HistoryBook
}

/// The array element holding the store's record: `{"schemaRecord": {…}}`.
struct ArchiveRecord: Codable {
    let schemaRecord: StoredSchema
}
