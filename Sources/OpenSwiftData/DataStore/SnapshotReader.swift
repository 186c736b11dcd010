import Foundation

/// Turns any store's snapshot into the value slots of a backing data. `DefaultSnapshot` is read
/// directly; any other snapshot type is read through its `Codable` conformance, as SwiftData does:
/// its `encode(to:)` runs against a capturing encoder keyed by ``DataStoreSnapshotCodingKey``.
package enum SnapshotReader {
    package static func slotValues<S: DataStoreSnapshot>(of snapshot: S, info: ModelTypeInfo) throws -> [Any?] {
        let named: [String: Any]
        if let snapshot = snapshot as? DefaultSnapshot {
            named = snapshot.values.mapValues(\.value)
        } else {
            let capture = CaptureEncoder()
            try snapshot.encode(to: capture)
            named = capture.storage.values
        }
        return try info.properties.map { property in
            guard let raw = named[property.name] else { return nil }
            return try slotValue(raw, for: property, entityName: info.entityName)
        }
    }

    private static func slotValue(_ raw: Any, for property: ModelTypeInfo.Property, entityName: String) throws -> Any? {
        let present = unwrapOptional(raw)
        switch property.shape {
        case .toOne:
            return BackingStorage.UnresolvedRelationship(identifiers: (present as? PersistentIdentifier).map { [$0] })
        case .toMany:
            return BackingStorage.UnresolvedRelationship(identifiers: present as? [PersistentIdentifier] ?? (property.isOptional ? nil : []))
        case .attribute:
            guard let present else {
                if let optional = property.valueType as? any AnyOptional.Type { return optional.nilValue }
                throw PersistenceError(.invalidSnapshot, "The \(entityName) snapshot holds null for '\(property.name)', which is not optional.")
            }
            if let typed = cast(present, to: property.valueType) { return typed }
            return try convertThroughJSON(present, to: property, entityName: entityName)
        }
    }

    /// `value` as the property's declared type (wrapping it in an Optional where declared so).
    private static func cast(_ value: Any, to type: any Any.Type) -> Any? {
        func open<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
        return open(type)
    }

    /// A snapshot may encode a property with another, compatible type (e.g. an `Int64` for an `Int`,
    /// a raw value for an enum): one JSON round trip converts it the way `Codable` would.
    private static func convertThroughJSON(_ value: Any, to property: ModelTypeInfo.Property, entityName: String) throws -> Any {
        guard let encodable = value as? any Encodable, let decodable = property.valueType as? any Decodable.Type else {
            throw PersistenceError(.invalidSnapshot, "The \(entityName) snapshot holds a \(type(of: value)) for '\(property.name)', which is declared \(property.valueType).")
        }
        do {
            let data = try JSONEncoder().encode(JSONBox(encodable))
            return try JSONDecoder().decode(JSONUnbox.self, from: data, configuration: decodable).value
        } catch {
            throw PersistenceError(.invalidSnapshot, "The \(entityName) snapshot holds a \(type(of: value)) for '\(property.name)', which does not convert to \(property.valueType).", underlying: error)
        }
    }
}

private struct JSONBox: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(value)
    }
}

private struct JSONUnbox: DecodableWithConfiguration {
    let value: Any
    init(from decoder: any Decoder, configuration: any Decodable.Type) throws {
        var container = try decoder.unkeyedContainer()
        func open<T: Decodable>(_: T.Type) throws -> Any { try container.decode(T.self) }
        value = try open(configuration)
    }
}

/// Records the values a snapshot's `encode(to:)` writes at the top level of a keyed container.
private final class CaptureEncoder: Encoder {
    final class Storage { var values: [String: Any] = [:] }
    let storage = Storage()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CaptureContainer<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("A DataStoreSnapshot must encode into a keyed container (DataStoreSnapshotCodingKey).")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("A DataStoreSnapshot must encode into a keyed container (DataStoreSnapshotCodingKey).")
    }
}

private struct CaptureContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: CaptureEncoder.Storage
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { storage.values[key.stringValue] = Optional<Any>.none as Any }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { storage.values[key.stringValue] = value }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("A DataStoreSnapshot must encode each property as one value; '\(key.stringValue)' opened a nested container.")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("A DataStoreSnapshot must encode each property as one value; '\(key.stringValue)' opened a nested container.")
    }

    mutating func superEncoder() -> any Encoder { CaptureEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { CaptureEncoder() }
}
