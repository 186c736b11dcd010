import Foundation
import OpenSwiftData

/// Property values by name as the sync endpoints carry them: attributes in their type's own
/// `Codable` form (as snapshots encode them), relationships as ``SyncReference``s. Decoding reads
/// each property as its model type declares it, so a value of the wrong type is refused by name.
package struct SyncValues: Sendable {
    /// One property's value.
    package enum Value: @unchecked Sendable {
        /// An attribute's value, typed; an `Optional` for an optional attribute.
        case attribute(Any)
        case toOne(SyncReference?)
        case toMany([SyncReference])
    }

    package let info: ModelTypeInfo
    package var values: [(property: ModelTypeInfo.Property, value: Value)]

    /// Decodes the values of a model of `entity`; throws `DecodingError` naming an unknown
    /// entity or property, or a value of the wrong type.
    package init(entity: String, from decoder: any Decoder) throws {
        guard let type = EntityRegistry.modelType(named: entity) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "The server's schema has no entity '\(entity)'."))
        }
        let info = ModelTypeInfo.of(type)
        self.info = info
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        values = try container.allKeys.map { key in
            guard let property = info.property(named: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(entity) has no property '\(key.stringValue)'.")
            }
            return (property, try Self.decode(property, entity: entity, from: container, forKey: key))
        }
    }

    private static func decode(_ property: ModelTypeInfo.Property, entity: String,
                               from container: KeyedDecodingContainer<DataStoreSnapshotCodingKey>,
                               forKey key: DataStoreSnapshotCodingKey) throws -> Value {
        switch property.shape {
        case .toOne:
            return .toOne(try container.decodeIfPresent(SyncReference.self, forKey: key))
        case .toMany:
            return .toMany(try container.decodeIfPresent([SyncReference].self, forKey: key) ?? [])
        case .attribute:
            let optional = property.valueType as? any AnyOptional.Type
            guard let decodable = (optional?.optionalWrappedType ?? property.valueType) as? any Decodable.Type else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(entity).\(property.name) is not Decodable, so it cannot be synced.")
            }
            func open<T: Decodable>(_: T.Type) throws -> Any? { try container.decodeIfPresent(T.self, forKey: key) }
            if let value = try open(decodable) {
                return .attribute(optional == nil ? value : wrap(value, as: decodable))
            }
            guard let optional else {
                throw DecodingError.valueNotFound(decodable, .init(codingPath: container.codingPath + [key],
                    debugDescription: "\(entity).\(property.name) is not optional; send a value."))
            }
            return .attribute(optional.nilValue)
        }
    }

    private static func wrap<Wrapped: Decodable>(_ value: Any, as _: Wrapped.Type) -> Any {
        (value as? Wrapped) as Any
    }
}

/// A model's row as the sync endpoints send it: its key and every property's value.
package struct SyncRow: Encodable, @unchecked Sendable {
    package let key: SyncKey
    let snapshot: DefaultSnapshot
    let info: ModelTypeInfo

    package init(_ snapshot: DefaultSnapshot, info: ModelTypeInfo) {
        key = SyncKey(snapshot.persistentIdentifier.primaryKey)
        self.snapshot = snapshot
        self.info = info
    }

    private enum CodingKeys: String, CodingKey { case key, values }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        var values = container.nestedContainer(keyedBy: DataStoreSnapshotCodingKey.self, forKey: .values)
        for property in info.properties {
            let key = DataStoreSnapshotCodingKey.modeledProperty(property.name)
            guard let stored = snapshot.values.value(of: property, in: info), let present = unwrapOptional(stored.value) else {
                if case .toMany = property.shape { try values.encode([SyncReference](), forKey: key) } else { try values.encodeNil(forKey: key) }
                continue
            }
            switch property.shape {
            case .toOne:
                guard let identifier = present as? PersistentIdentifier else { try values.encodeNil(forKey: key); continue }
                try values.encode(SyncReference(identifier), forKey: key)
            case .toMany:
                try values.encode(((present as? [PersistentIdentifier]) ?? []).map(SyncReference.init), forKey: key)
            case .attribute:
                guard let encodable = present as? any Encodable else {
                    throw EncodingError.invalidValue(present, .init(codingPath: values.codingPath + [key],
                        debugDescription: "\(info.entityName).\(property.name) holds a \(type(of: present)), which is not Encodable."))
                }
                try values.encode(encodable, forKey: key)
            }
        }
    }
}
