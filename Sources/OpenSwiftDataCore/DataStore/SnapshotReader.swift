import Foundation

/// Turns any store's snapshot into the value slots of a backing data. `DefaultSnapshot` is read
/// directly; any other snapshot type is read through its `Codable` conformance, as SwiftData does:
/// its `encode(to:)` runs against a capturing encoder keyed by ``DataStoreSnapshotCodingKey``.
package enum SnapshotReader {
    package static func slotValues<S: DataStoreSnapshot>(of snapshot: S, info: ModelTypeInfo) throws -> [Any?] {
        if let snapshot = snapshot as? DefaultSnapshot { return try slotValues(of: snapshot, info: info) }
        let capture = CaptureEncoder()
        try snapshot.encode(to: capture)
        guard !capture.storage.usedNestedContainers else {
            return try slotValuesThroughJSON(of: snapshot, info: info)
        }
        return try slotValues(named: capture.storage.values, info: info)
    }

    /// A `DefaultSnapshot`'s values, read directly.
    package static func slotValues(of snapshot: DefaultSnapshot, info: ModelTypeInfo) throws -> [Any?] {
        guard let slots = snapshot.values.slots(for: info) else {
            return try slotValues(named: Dictionary(snapshot.values.map { ($0.key, $0.value.value) }, uniquingKeysWith: { first, _ in first }), info: info)
        }
        var result = slots
        try readRow(&result, info: info, attributesTyped: snapshot.values.attributesTyped)
        return result
    }

    /// Turns a row's values (as a snapshot holds them, in `info`'s slot order) into what a model's
    /// slots hold, in place. Values already of their declared type stay where they are: a model
    /// with only such attributes gets the row's own array, shared and never copied.
    /// `attributesTyped`: every attribute is known to be of its declared type, so only the
    /// relationships are read.
    package static func readRow(_ values: inout [Any?], info: ModelTypeInfo, attributesTyped: Bool) throws {
        if attributesTyped { return try readRelationships(&values, info: info) }
        for property in info.properties {
            guard let raw = values[property.index] else { continue }
            if case .attribute = property.shape, ObjectIdentifier(type(of: raw)) == ObjectIdentifier(property.valueType) { continue }
            values[property.index] = try slotValue(raw, for: property, entityName: info.entityName)
        }
    }

    /// Turns the relationship slots of `slots` (whose attributes already hold their declared
    /// types) into what a model's slot holds, in place.
    package static func readRelationships(_ slots: inout [Any?], info: ModelTypeInfo) throws {
        for slot in info.relationshipSlots {
            guard let raw = slots[slot] else { continue }
            slots[slot] = try slotValue(raw, for: info.properties[slot], entityName: info.entityName)
        }
    }

    private static func slotValues(named: [String: Any], info: ModelTypeInfo) throws -> [Any?] {
        try info.properties.map { property in
            guard let raw = named[property.name] else { return nil }
            return try slotValue(raw, for: property, entityName: info.entityName)
        }
    }

    /// For snapshots that encode a property through nested containers: the whole snapshot as a JSON
    /// object, each property's fragment decoded as the property's declared type.
    private static func slotValuesThroughJSON<S: DataStoreSnapshot>(of snapshot: S, info: ModelTypeInfo) throws -> [Any?] {
        let object: [String: Any]
        do {
            object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any] ?? [:]
        } catch {
            throw PersistenceError(.invalidSnapshot, "The \(info.entityName) snapshot could not be encoded to be read.", underlying: error)
        }
        return try info.properties.map { property in
            guard let fragment = object[property.name] else { return nil }
            let decoded: Any
            switch property.shape {
            case .toOne: decoded = try decodeFragment(fragment, as: PersistentIdentifier?.self) as Any
            case .toMany: decoded = try decodeFragment(fragment, as: [PersistentIdentifier]?.self) as Any
            case .attribute:
                guard !(fragment is NSNull) else { return try slotValue(Optional<Any>.none as Any, for: property, entityName: info.entityName) }
                guard let type = property.valueType as? any Decodable.Type else {
                    throw PersistenceError(.invalidSnapshot, "\(info.entityName).\(property.name) is declared \(property.valueType), which is not Decodable.")
                }
                decoded = try decodeFragment(fragment, as: type)
            }
            return try slotValue(decoded, for: property, entityName: info.entityName)
        }
    }

    private static func decodeFragment<T: Decodable>(_ fragment: Any, as _: T.Type) throws -> T {
        let data = try JSONSerialization.data(withJSONObject: [fragment])
        return try JSONDecoder().decodeChecked([T].self, from: data)[0]
    }

    private static func slotValue(_ raw: Any, for property: ModelTypeInfo.Property, entityName: String) throws -> Any? {
        // Snapshots built from models, decoded with the declared types or read by the default store
        // already hold the declared type: returned as they are, not unwrapped and cast again.
        if case .attribute = property.shape, ObjectIdentifier(type(of: raw)) == ObjectIdentifier(property.valueType) { return raw }
        switch property.shape {
        case .toOne:
            return BackingStorage.UnresolvedRelationship(identifiers: heldIdentifier(raw).map { [$0] })
        case .toMany:
            if holdsExactly(raw, DataStoreDeferredToMany.Reference.self) {
                return BackingStorage.UnresolvedRelationship(takeExactly(raw, as: DataStoreDeferredToMany.Reference.self))
            }
            return BackingStorage.UnresolvedRelationship(identifiers: heldIdentifiers(raw) ?? (property.isOptional ? nil : []))
        case .attribute:
            guard let present = unwrapOptional(raw) else {
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
            return try JSONDecoder().decodeChecked(JSONUnbox.self, from: data, configuration: decodable).value
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
/// Anything else (nested containers, an unkeyed or single-value top level) only sets
/// `usedNestedContainers`, and the reader then goes through JSON instead.
private final class CaptureEncoder: Encoder {
    final class Storage {
        var values: [String: Any] = [:]
        var usedNestedContainers = false
    }
    let storage: Storage
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(storage: Storage = Storage()) { self.storage = storage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CaptureContainer<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.usedNestedContainers = true
        return DiscardingContainer(storage: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        storage.usedNestedContainers = true
        return DiscardingContainer(storage: storage)
    }
}

private struct CaptureContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: CaptureEncoder.Storage
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { storage.values[key.stringValue] = Optional<Any>.none as Any }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { storage.values[key.stringValue] = value }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        storage.usedNestedContainers = true
        return KeyedEncodingContainer(CaptureContainer<NestedKey>(storage: CaptureEncoder.Storage()))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        storage.usedNestedContainers = true
        return DiscardingContainer(storage: storage)
    }

    mutating func superEncoder() -> any Encoder {
        storage.usedNestedContainers = true
        return CaptureEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        storage.usedNestedContainers = true
        return CaptureEncoder()
    }
}

/// Accepts and drops values written where the capture cannot follow; the JSON path reads them.
private struct DiscardingContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let storage: CaptureEncoder.Storage
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CaptureContainer<NestedKey>(storage: CaptureEncoder.Storage()))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { CaptureEncoder() }
}
