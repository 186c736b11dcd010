import Foundation
import OpenSwiftData

extension RowsResponse {
    /// The answer as JSON, the form ``encode(to:)`` gives. The values rows mostly hold (strings,
    /// numbers, booleans, dates, UUIDs) are written directly: `JSONEncoder` boxes each value in a
    /// tree before writing it, most of a server's work for a fetch. Any other value, and an
    /// identifier of another entity, is written by the wire encoder on its own.
    package func json() throws -> Data {
        var writer = JSONWriter(encoder: WireCoding.encoder())
        writer.bytes.reserveCapacity(96 + rows.count * (8 + 24 * properties.count))
        writer.append("{\"entityName\":")
        writer.string(entityName)
        writer.append(",\"storeIdentifier\":")
        writer.string(storeIdentifier)
        writer.append(",\"properties\":[")
        for (index, property) in properties.enumerated() {
            if index > 0 { writer.append(",") }
            writer.string(property)
        }
        writer.append("],\"rows\":[")
        let scope = IdentifierScope.of(entityName: entityName, storeIdentifier: storeIdentifier)
        for (position, row) in rows.enumerated() {
            writer.append(position == 0 ? "[" : ",[")
            let identifier = row.persistentIdentifier
            switch identifier.primaryKey {
            case .integer(let key) where identifier.scope === scope: writer.append(String(key))
            case .string(let key) where identifier.scope === scope: writer.string(key)
            default: try writer.encoded(identifier)
            }
            for (index, value) in row.values.enumerated() {
                writer.append(",")
                guard let value, let present = unwrapOptional(value) else {
                    writer.append("null")
                    continue
                }
                guard try !writer.direct(present) else { continue }
                guard let encodable = present as? any Encodable else {
                    throw EncodingError.invalidValue(present, .init(codingPath: [], debugDescription:
                        "\(entityName).\(properties[index]) holds a \(type(of: present)), which is not Encodable; persisted properties must be Codable."))
                }
                try writer.encoded(encodable)
            }
            writer.append("]")
        }
        writer.append("]}")
        return Data(writer.bytes)
    }
}

/// JSON text written into one byte array.
private struct JSONWriter {
    let encoder: JSONEncoder
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A value of a common type as `JSONEncoder` with the wire's settings would write it; false
    /// for any other type.
    mutating func direct(_ value: Any) throws -> Bool {
        switch value {
        case let text as String: string(text)
        case let integer as Int: append(String(integer))
        case let number as Double: floatingPoint(number)
        case let flag as Bool: append(flag ? "true" : "false")
        case let date as Date: floatingPoint(date.timeIntervalSinceReferenceDate)
        case let uuid as UUID: string(uuid.uuidString)
        case let integer as Int64: append(String(integer))
        case let integer as Int32: append(String(integer))
        case let number as Float: floatingPoint(number)
        default: return false
        }
        return true
    }

    /// Non-finite numbers as the wire spells them (``WireCoding``): JSON has no NaN.
    private mutating func floatingPoint(_ number: some BinaryFloatingPoint & CustomStringConvertible) {
        guard number.isFinite else { return string(number.isNaN ? "nan" : number > 0 ? "+infinity" : "-infinity") }
        append(number.description)
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
