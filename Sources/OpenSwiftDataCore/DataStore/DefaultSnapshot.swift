import Foundation

/// SwiftData's own snapshot. It encodes flat: the identifier under `persistentIdentifier`, then one
/// key per model property named after the property (a to-one relationship as an identifier or
/// `null`, a to-many as an array of identifiers), so archived snapshots stay readable and
/// hand-editable. Decoding looks up each property's type, so the decoder's strategies (dates,
/// data) apply.
public struct DefaultSnapshot: DataStoreSnapshot {
    /// The identifier of the model the snapshot copies.
    public let persistentIdentifier: PersistentIdentifier
    /// Values by property name: attributes as their declared type, relationships as identifiers.
    package let values: SnapshotValues
    /// For a model that was saved or fetched before: the slots changed since, so that a store may
    /// write only those; nil when unknown (a new model, or a snapshot from elsewhere).
    package let changedSlots: ChangedSlots?

    package init(persistentIdentifier: PersistentIdentifier, values: [String: SnapshotValue]) {
        self.init(persistentIdentifier: persistentIdentifier, values: SnapshotValues(values))
    }

    package init(persistentIdentifier: PersistentIdentifier, values: SnapshotValues, changedSlots: ChangedSlots? = nil) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
        self.changedSlots = changedSlots
    }

    /// Copies a model's persisted values; models it refers to are added to
    /// `relatedBackingDatas`. Only for backing data OpenSwiftData created.
    public init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        guard let storage = backingData as? BackingStorage else {
            preconditionFailure("DefaultSnapshot can only be built from backing data created by OpenSwiftData (createBackingData()).")
        }
        self.init(storage: storage, relatedBackingDatas: &relatedBackingDatas)
    }

    /// The snapshot of a model's storage, for a save that has the storage at hand (no cast).
    package init(storage: BackingStorage, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        self = withUnsafeMutablePointer(to: &relatedBackingDatas) { DefaultSnapshot(storage: storage, collectingInto: $0) }
    }

    /// The snapshot of a model's storage, for a store that never reads the related models' backing
    /// data (the default store): it skips collecting them into a dictionary, a cost per model of a
    /// graph.
    package init(storage: BackingStorage) {
        self.init(storage: storage, collectingInto: nil)
    }

    private init(storage: BackingStorage, collectingInto related: UnsafeMutablePointer<[PersistentIdentifier: any BackingData]>?) {
        persistentIdentifier = storage.persistentModelIdentifier
        changedSlots = storage.committed == nil ? nil : storage.changedSlots
        let info = storage.info
        if !storage.isFault, storage.hasEveryValue {
            // Every value is set: the snapshot shares the model's array (copied only if either
            // changes) instead of holding a copy of it through the save. A graph's model gets a
            // copy with its relationship slots turned into identifiers: one bulk copy of the array,
            // where reading and appending the values one by one copies each property's description
            // too.
            var values = storage.values
            for slot in info.relationshipSlots {
                values[slot] = Self.relationshipValue(values[slot], of: info.properties[slot], rule: info.relationshipRule(at: slot), collectingInto: related)
            }
            self.values = SnapshotValues(info: info, slots: values)
            return
        }
        var values: [Any?] = []
        values.reserveCapacity(info.properties.count)
        for property in info.properties {
            let value = storage.value(at: property.index)
            if property.isRelationship {
                values.append(Self.relationshipValue(value, of: property, rule: info.relationshipRule(at: property.index), collectingInto: related))
            } else {
                values.append(value)
            }
        }
        self.values = SnapshotValues(info: info, slots: values)
    }

    /// A relationship slot's value as a snapshot holds it: the related identifiers (an empty
    /// to-many as `[]` unless it is optional), or the one related identifier of a to-one.
    private static func relationshipValue(_ value: Any?, of property: ModelTypeInfo.Property, rule: RelationshipRule?,
                                          collectingInto related: UnsafeMutablePointer<[PersistentIdentifier: any BackingData]>?) -> Any {
        let identifiers = SnapshotValue.relatedIdentifiers(value, of: property, rule: rule, collectingInto: related)
        switch property.shape {
        case .toMany:
            let all: [PersistentIdentifier]? = identifiers ?? (property.isOptional ? nil : [])
            return all as Any
        default:
            return identifiers?.first as Any
        }
    }

    /// A copy under another identifier, with references to inserted models remapped to their
    /// permanent identifiers.
    public func copy(persistentIdentifier: PersistentIdentifier,
                     remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]? = [:]) -> DefaultSnapshot {
        guard let remap = remappedIdentifiers, !remap.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values, changedSlots: changedSlots)
        }
        return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values.remapped(remap), changedSlots: changedSlots)
    }

    /// The property names in the order the model declares them (unknown entities: sorted).
    private func orderedNames() -> [String] {
        guard let type = EntityRegistry.modelType(named: persistentIdentifier.entityName) else { return values.keys.sorted() }
        let declared = ModelTypeInfo.of(type).properties.map(\.name)
        return declared.filter { values[$0] != nil } + values.keys.filter { !declared.contains($0) }.sorted()
    }

    /// Encodes the identifier, then each property under its name, in declaration order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        for name in orderedNames() {
            guard let value = values[name] else { continue }
            let key = DataStoreSnapshotCodingKey.modeledProperty(name)
            guard let present = unwrapOptional(value.value) else {
                try container.encodeNil(forKey: key)
                continue
            }
            guard let encodable = present as? any Encodable else {
                throw EncodingError.invalidValue(present, .init(codingPath: container.codingPath + [key],
                    debugDescription: "\(persistentIdentifier.entityName).\(name) holds a \(type(of: present)), which is not Encodable; persisted properties must be Codable."))
            }
            try container.encode(encodable, forKey: key)
        }
    }

    /// Decodes a snapshot, reading each property as its declared type so the decoder's date and
    /// data strategies apply.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        changedSlots = nil
        let entityName = persistentIdentifier.entityName
        guard let modelType = EntityRegistry.modelType(named: entityName) else {
            throw DecodingError.dataCorruptedError(forKey: .persistentIdentifier, in: container, debugDescription:
                "The snapshot is of entity '\(entityName)', which no Schema in this process contains; create the ModelContainer (or a Schema) for its model type before decoding.")
        }
        let info = ModelTypeInfo.of(modelType)
        self.values = SnapshotValues(info: info, slots: try info.properties.map { property in
            try SnapshotValue.decode(property, entityName: entityName, from: container,
                                     forKey: DataStoreSnapshotCodingKey.modeledProperty(property.name))?.value
        })
    }
}

/// One property value inside a snapshot. Unchecked: values are copies of `Codable` property values
/// (value types in practice), never shared mutable state.
package struct SnapshotValue: @unchecked Sendable {
    package let value: Any

    package init(_ value: Any) { self.value = value }

    /// A relationship slot as identifiers (`nil` for an empty to-one or a nil optional to-many),
    /// collecting the related models' backing datas on the way when `related` is given.
    static func relatedIdentifiers(_ value: Any?, of property: ModelTypeInfo.Property, rule: RelationshipRule?,
                                   collectingInto related: UnsafeMutablePointer<[PersistentIdentifier: any BackingData]>?) -> [PersistentIdentifier]? {
        func identifier(of model: any PersistentModel) -> PersistentIdentifier {
            // The model's own backing data, without casting it to the library's class and back
            // to the protocol (two dynamic casts per related model).
            func backingData<M: PersistentModel>(of model: M) -> any BackingData { model.persistentBackingData }
            let backing = backingData(of: model)
            let identifier = backing.persistentModelID ?? model.persistentModelID
            related?.pointee[identifier] = backing
            return identifier
        }
        if let value, let rule {
            var identifiers: [PersistentIdentifier] = []
            // A deleted model is no longer referred to (a to-one without an inverse still holds it).
            switch rule.forEachModel(in: value, { model in
                if model.backingStorage?.state != .deleted { identifiers.append(identifier(of: model)) }
            }) {
            case true?: return identifiers
            case false?: return nil
            case nil: break
            }
        }
        guard let value else { return nil }
        // A relationship fetched and not read since holds its identifiers as they came: taken
        // before unwrapping, which asks the runtime whether the value is an optional, for each
        // model an update saves.
        if let unresolved = BackingStorage.UnresolvedRelationship.of(value) { return unresolved.identifiers }
        guard let value = unwrapOptional(value) else { return nil }
        if let unresolved = BackingStorage.UnresolvedRelationship.of(value) { return unresolved.identifiers }
        guard let models = relationshipModels(in: value, shape: property.shape) else { return nil }
        return models.filter { $0.backingStorage?.state != .deleted }.map(identifier(of:))
    }

    func remapped(_ remap: [PersistentIdentifier: PersistentIdentifier]) -> SnapshotValue {
        if let identifier = value as? PersistentIdentifier { return SnapshotValue(remap[identifier] ?? identifier) }
        if let identifier = value as? PersistentIdentifier? { return SnapshotValue(identifier.map { remap[$0] ?? $0 } as Any) }
        if let identifiers = value as? [PersistentIdentifier] { return SnapshotValue(identifiers.map { remap[$0] ?? $0 }) }
        if let identifiers = value as? [PersistentIdentifier]? {
            return SnapshotValue(identifiers.map { $0.map { remap[$0] ?? $0 } } as Any)
        }
        return self
    }

    static func decode(_ property: ModelTypeInfo.Property, entityName: String,
                       from container: KeyedDecodingContainer<DataStoreSnapshotCodingKey>,
                       forKey key: DataStoreSnapshotCodingKey) throws -> SnapshotValue? {
        switch property.shape {
        case .toOne:
            return SnapshotValue(try container.decodeIfPresent(PersistentIdentifier.self, forKey: key) as Any)
        case .toMany:
            // Typed, so the value is a `[PersistentIdentifier]?` (an untyped `[]` made it `[Any]?`).
            let identifiers: [PersistentIdentifier]? = try container.decodeIfPresent([PersistentIdentifier].self, forKey: key)
                ?? (property.isOptional ? nil : [])
            return SnapshotValue(identifiers as Any)
        case .attribute:
            let optional = property.valueType as? any AnyOptional.Type
            guard let decodable = (optional?.optionalWrappedType ?? property.valueType) as? any Decodable.Type else { return nil }
            if let value = try container.decodeDynamicIfPresent(decodable, forKey: key) {
                return SnapshotValue(optional == nil ? value : wrapInOptional(value, of: decodable))
            }
            if let optional { return SnapshotValue(optional.nilValue) }
            if let defaultValue = property.defaultValue { return SnapshotValue(defaultValue) }
            throw DecodingError.keyNotFound(key, .init(codingPath: container.codingPath,
                debugDescription: "The \(entityName) snapshot has no value for '\(property.name)', which is not optional and has no default value."))
        }
    }

    private static func wrapInOptional<Wrapped: Decodable>(_ value: Any, of _: Wrapped.Type) -> Any {
        (value as? Wrapped) as Any
    }
}

extension KeyedDecodingContainer {
    /// Decodes a value whose type is only known at run time.
    fileprivate func decodeDynamicIfPresent(_ type: any Decodable.Type, forKey key: Key) throws -> Any? {
        func open<T: Decodable>(_: T.Type) throws -> Any? { try decodeIfPresent(T.self, forKey: key) }
        return try open(type)
    }
}
