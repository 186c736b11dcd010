import Foundation
import OpenSwiftData

/// Body of the answer to `rows`: the matching models of one entity as ``DataStoreRow``s, their
/// values in the entity's ``DataStoreRowLayout`` order. The property names and the store come once,
/// not with every model:
///
/// ```json
/// {"entityName": "Note", "storeIdentifier": "notes", "properties": ["title", "folder"],
///  "rows": [[1, "Groceries", null], [2, "Ideas", {"implementation": {…}}]]}
/// ```
///
/// Each row is the model's primary key (its identifier is then of `entityName` in
/// `storeIdentifier`), or its whole identifier for any other, then one value per property in
/// the Codable form snapshots use (to-one relationships as an identifier or null, to-many as an
/// array of identifiers).
package struct RowsResponse: Encodable {
    package var entityName: String
    package var storeIdentifier: String
    package var properties: [String]
    package var rows: [DataStoreRow]

    package init(layout: DataStoreRowLayout, storeIdentifier: String, rows: [DataStoreRow]) {
        entityName = layout.entityName
        self.storeIdentifier = storeIdentifier
        properties = layout.propertyNames
        self.rows = rows
    }

    private enum CodingKeys: String, CodingKey {
        case entityName, storeIdentifier, properties, rows
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entityName, forKey: .entityName)
        try container.encode(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(properties, forKey: .properties)
        let scope = IdentifierScope.of(entityName: entityName, storeIdentifier: storeIdentifier)
        var list = container.nestedUnkeyedContainer(forKey: .rows)
        for row in rows {
            var values = list.nestedUnkeyedContainer()
            let identifier = row.persistentIdentifier
            switch identifier.primaryKey {
            case .integer(let key) where identifier.scope === scope: try values.encode(key)
            case .string(let key) where identifier.scope === scope: try values.encode(key)
            default: try values.encode(identifier)
            }
            for (index, value) in row.values.enumerated() {
                guard let value, let present = unwrapOptional(value) else {
                    try values.encodeNil()
                    continue
                }
                guard let encodable = present as? any Encodable else {
                    throw EncodingError.invalidValue(present, .init(codingPath: values.codingPath, debugDescription:
                        "\(entityName).\(properties[index]) holds a \(type(of: present)), which is not Encodable; persisted properties must be Codable."))
                }
                try values.encode(encodable)
            }
        }
    }

    /// The rows of an answer to `rows` for the model type `layout` describes. Throws
    /// `DecodingError` when the answer is of another entity or another list of properties (client
    /// and server built from different models), or a value is not of its property's type.
    package static func decodeRows(from data: Data, layout: DataStoreRowLayout) throws -> [DataStoreRow] {
        var reader = RowsReader(data, layout: layout)
        if let rows = reader.read() { return rows }
        return try decodeRowsThroughCodable(from: data, layout: layout)
    }

    /// ``decodeRows(from:layout:)`` through `JSONDecoder` alone: any answer that is JSON, with
    /// errors that say what is wrong.
    package static func decodeRowsThroughCodable(from data: Data, layout: DataStoreRowLayout) throws -> [DataStoreRow] {
        let decoder = WireCoding.decoder()
        let box = DecodedRows(layout: layout)
        decoder.userInfo[DecodedRows.key] = box
        return try decoder.decodeChecked(RowsBody.self, from: data).rows
    }
}

/// The layout the decoder reads rows with, handed over through `userInfo`.
private final class DecodedRows: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "OpenSwiftData.rowLayout")!
    let layout: DataStoreRowLayout

    init(layout: DataStoreRowLayout) {
        self.layout = layout
    }
}

private struct RowsBody: Decodable {
    private enum CodingKeys: String, CodingKey {
        case entityName, storeIdentifier, properties, rows
    }

    let rows: [DataStoreRow]

    init(from decoder: any Decoder) throws {
        guard let layout = (decoder.userInfo[DecodedRows.key] as? DecodedRows)?.layout else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Rows are decoded with RowsResponse.decodeRows(from:layout:)."))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entityName = try container.decode(String.self, forKey: .entityName)
        let storeIdentifier = try container.decode(String.self, forKey: .storeIdentifier)
        let properties = try container.decode([String].self, forKey: .properties)
        guard entityName == layout.entityName, properties == layout.propertyNames else {
            throw DecodingError.dataCorruptedError(forKey: .properties, in: container, debugDescription:
                "The server sent \(entityName) rows of (\(properties.joined(separator: ", "))), where this program's \(layout.entityName) has (\(layout.propertyNames.joined(separator: ", "))).")
        }
        let scope = IdentifierScope.of(entityName: entityName, storeIdentifier: storeIdentifier)
        let described = layout.info.properties
        var list = try container.nestedUnkeyedContainer(forKey: .rows)
        var rows: [DataStoreRow] = []
        if let count = list.count { rows.reserveCapacity(count) }
        while !list.isAtEnd {
            var values = try list.nestedUnkeyedContainer()
            let identifier: PersistentIdentifier
            if let key = try? values.decode(Int64.self) {
                identifier = PersistentIdentifier(scope: scope, primaryKey: .integer(key))
            } else if let key = try? values.decode(String.self) {
                identifier = PersistentIdentifier(scope: scope, primaryKey: .string(key))
            } else {
                identifier = try values.decode(PersistentIdentifier.self)
            }
            guard values.count == described.count + 1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: values.codingPath, debugDescription:
                    "A \(entityName) row holds \((values.count ?? 1) - 1) values for \(described.count) properties."))
            }
            var row: [Any?] = []
            row.reserveCapacity(described.count)
            for property in described {
                row.append(try Self.value(of: property, entityName: entityName, from: &values))
            }
            rows.append(DataStoreRow(persistentIdentifier: identifier, values: row))
        }
        self.rows = rows
    }

    /// One value as a snapshot decoded from JSON holds it: a to-one as an optional identifier, a
    /// to-many as an optional array of identifiers, an attribute as its declared type (a null for
    /// a non-optional one is its default value, else an error).
    private static func value(of property: ModelTypeInfo.Property, entityName: String, from values: inout UnkeyedDecodingContainer) throws -> Any {
        switch property.shape {
        case .toOne:
            let identifier: PersistentIdentifier? = try values.decodeNil() ? nil : try values.decode(PersistentIdentifier.self)
            return identifier as Any
        case .toMany:
            let identifiers: [PersistentIdentifier]? = try values.decodeNil() ? (property.isOptional ? nil : []) : try values.decode([PersistentIdentifier].self)
            return identifiers as Any
        case .attribute:
            let optional = property.valueType as? any AnyOptional.Type
            guard let decodable = (optional?.optionalWrappedType ?? property.valueType) as? any Decodable.Type else {
                throw DecodingError.dataCorrupted(.init(codingPath: values.codingPath, debugDescription:
                    "\(entityName).\(property.name) is of a type that is not Decodable; persisted properties must be Codable."))
            }
            if try values.decodeNil() {
                if let optional { return optional.nilValue }
                if let defaultValue = property.defaultValue { return defaultValue }
                throw DecodingError.valueNotFound(decodable, .init(codingPath: values.codingPath, debugDescription:
                    "The \(entityName) row has null for '\(property.name)', which is not optional and has no default value."))
            }
            func decode<Value: Decodable>(_: Value.Type) throws -> Any {
                let value = try values.decode(Value.self)
                return optional == nil ? value : Optional(value) as Any
            }
            return try decode(decodable)
        }
    }
}
