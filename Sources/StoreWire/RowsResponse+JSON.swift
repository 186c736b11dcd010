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
        var kinds = [JSONWriter.DirectKind?](repeating: nil, count: properties.count)
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
                var kind = index < kinds.count ? kinds[index] : nil
                guard !writer.direct(present, kind: &kind) else {
                    if index < kinds.count { kinds[index] = kind }
                    continue
                }
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
