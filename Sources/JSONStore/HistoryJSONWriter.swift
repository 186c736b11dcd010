import Foundation
import OpenSwiftData

/// Writes the history element, `{"history":{…}}`, byte for byte as the archive's `JSONEncoder`
/// writes ``ArchiveHistory`` (sorted keys, compact or pretty-printed), but the inserts and updates
/// by hand: JSONEncoder's containers, four per change, were most of the time a save spent on its
/// history. Dates and deletes with their tombstones still go through the encoder, so its date
/// strategy and value coding apply unchanged.
struct HistoryJSONWriter {
    private var text: JSONWriter
    private let pretty: Bool
    private var level = 0

    init(encoder: JSONEncoder, pretty: Bool) {
        text = JSONWriter(encoder: encoder)
        self.pretty = pretty
    }

    /// The element's JSON, not yet indented as an element of the file's array.
    func json(_ book: HistoryBook) throws -> Data {
        var writer = self
        try writer.write(book)
        return Data(writer.text.bytes)
    }

    private mutating func write(_ book: HistoryBook) throws {
        let numbers = book.numbering
        open("{")
        key("history", first: true)
        open("{")
        key("deletedThrough", first: true)
        append(String(numbers.deletedThrough))
        key("lastChange")
        append(String(numbers.lastChange))
        key("lastTransaction")
        append(String(numbers.lastTransaction))
        key("records")
        try array(book.records) { try $0.write($1) }
        close("}")
        close("}")
    }

    /// The keys in `JSONEncoder`'s sorted order, as ``HistoryRecord``'s `encode(to:)` names them.
    private mutating func write(_ record: HistoryRecord) throws {
        open("{")
        key("author", first: true)
        if let author = record.author { text.string(author) } else { append("null") }
        key("bundleIdentifier")
        text.string(record.bundleIdentifier)
        key("changes")
        try array(record.changes) { try $0.write($1) }
        key("processIdentifier")
        text.string(record.processIdentifier)
        key("timestamp")
        try encoded(record.timestamp)
        key("transactionIdentifier")
        append(String(record.transactionIdentifier))
        close("}")
    }

    private mutating func write(_ change: HistoryRecord.Change) throws {
        let names: [String]?
        switch change.kind {
        case .insert: names = nil
        case .update(let changed): names = changed
        case .delete:
            // Tombstones hold values of any Codable type: the encoder writes them.
            try encoded(change)
            return
        }
        open("{")
        key("changeIdentifier", first: true)
        append(String(change.changeIdentifier))
        key("changedPersistentIdentifier")
        try write(change.identifier)
        key("kind")
        append(names == nil ? #""insert""# : #""update""#)
        if let names {
            key("updatedAttributes")
            try array(names) { $0.text.string($1) }
        }
        close("}")
    }

    /// As `PersistentIdentifier.encode(to:)` writes it.
    private mutating func write(_ identifier: PersistentIdentifier) throws {
        open("{")
        key("implementation", first: true)
        open("{")
        key("entityName", first: true)
        text.string(identifier.entityName)
        key("isTemporary")
        append(identifier.isTemporary ? "true" : "false")
        key("primaryKey")
        switch identifier.primaryKey {
        case .integer(let value): append(String(value))
        case .string(let value): text.string(value)
        }
        if let store = identifier.storeIdentifier {
            key("storeIdentifier")
            text.string(store)
        }
        key("uriRepresentation")
        text.string(identifier.uriRepresentation)
        close("}")
        close("}")
    }

    // MARK: JSON text

    /// `value` as the encoder writes it, its lines indented to the current level; the blank line
    /// of an empty object or array stays blank, as the encoder leaves it.
    private mutating func encoded(_ value: some Encodable) throws {
        guard pretty else { return try text.encoded(value) }
        var lineStart = false
        for byte in try text.encoder.encode(value) {
            if lineStart, byte != UInt8(ascii: "\n") { indent() }
            text.bytes.append(byte)
            lineStart = byte == UInt8(ascii: "\n")
        }
    }

    private mutating func array<Item>(_ items: [Item], _ write: (inout HistoryJSONWriter, Item) throws -> Void) throws {
        open("[")
        for (index, item) in items.enumerated() {
            element(first: index == 0)
            try write(&self, item)
        }
        close("]", empty: items.isEmpty)
    }

    private mutating func open(_ bracket: String) {
        append(bracket)
        level += 1
    }

    /// Closes an object or array; the encoder writes an empty one pretty-printed with a blank line.
    private mutating func close(_ bracket: String, empty: Bool = false) {
        level -= 1
        if pretty {
            append(empty ? "\n\n" : "\n")
            indent()
        }
        append(bracket)
    }

    private mutating func key(_ name: String, first: Bool = false) {
        element(first: first)
        append(pretty ? "\"\(name)\" : " : "\"\(name)\":")
    }

    private mutating func element(first: Bool) {
        if !first { append(",") }
        guard pretty else { return }
        append("\n")
        indent()
    }

    private mutating func indent() {
        text.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private mutating func append(_ fragment: String) {
        text.append(fragment)
    }
}
