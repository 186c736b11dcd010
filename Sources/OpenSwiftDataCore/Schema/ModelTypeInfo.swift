import Foundation
import Synchronization

/// Everything the runtime needs to know about one `@Model` class, computed once from its
/// `schemaMetadata` and cached: the property slots a backing data stores values in, and the map from
/// key paths to those slots.
package final class ModelTypeInfo: @unchecked Sendable {
    package struct Property: @unchecked Sendable {
        package let index: Int
        package let name: String
        package let keyPath: AnyKeyPath
        package let valueType: any Any.Type
        package let shape: PropertyShape
        package let defaultValue: Any?
        package let metadata: (any SchemaProperty)?
        /// Stored, not derived from `valueType` on each use: that is a conformance lookup, and
        /// saves and fetches ask once per value.
        package let isOptional: Bool

        init(index: Int, name: String, keyPath: AnyKeyPath, valueType: any Any.Type, shape: PropertyShape,
             defaultValue: Any?, metadata: (any SchemaProperty)?) {
            self.index = index
            self.name = name
            self.keyPath = keyPath
            self.valueType = valueType
            self.shape = shape
            self.defaultValue = defaultValue
            self.metadata = metadata
            isOptional = valueType is any AnyOptional.Type
        }

        package var isRelationship: Bool {
            if case .attribute = shape { return false }
            return true
        }
    }

    package let modelType: any PersistentModel.Type
    /// The top `@Model` class of `modelType`'s hierarchy (``PersistentModel/Root``); `modelType`
    /// itself for a class that inherits from no model class.
    package let rootType: any PersistentModel.Type
    package let entityName: String
    /// The scope of the entity's temporary identifiers, looked up once rather than per insert.
    package let temporaryScope: IdentifierScope
    package let properties: [Property]
    package let uniqueKeyPathLists: [[AnyKeyPath]]
    package let indexKeyPathLists: [[AnyKeyPath]]
    private let slotByKeyPath: [AnyKeyPath: Int]
    private let slotByName: [String: Int]
    /// Slots by key path object: the `@Model` accessors pass the same key path instance on every
    /// call, so a property read or write hashes a pointer, not the key path.
    private let slotByIdentity: IdentityCache<Int?>
    /// One `nil` per property: new backing data starts as a copy of this (a retain, not a loop).
    package let unsetValues: [Any?]
    /// The relationship slots, for the readers that only need to touch those.
    package let relationshipSlots: [Int]
    /// The slots that can hold identifiers: relationships, and attributes declared as identifiers.
    /// Remapping a save's identifiers looks at these alone; asking every value whether it is an
    /// identifier was four dynamic casts per value.
    package let identifierSlots: [Int]
    /// `ModelBackingData<Model>`, as a class object, for ``makeBacking(as:)``.
    private let backingType: BackingStorage.Type

    private init(_ modelType: any PersistentModel.Type) {
        self.modelType = modelType
        entityName = String(describing: modelType)
        temporaryScope = .of(entityName: entityName, storeIdentifier: nil)
        var properties: [Property] = []
        var unique: [[AnyKeyPath]] = []
        var index: [[AnyKeyPath]] = []
        for entry in modelType.schemaMetadata {
            if let constraints = entry.metadata as? any KeyPathConstraintList {
                if entry.metadata?.isUnique == true { unique += constraints.keyPathLists } else { index += constraints.keyPathLists }
                continue
            }
            let valueType = type(of: entry.keypath).valueType
            properties.append(Property(index: properties.count, name: entry.name, keyPath: entry.keypath,
                                       valueType: valueType, shape: PropertyShape(valueType),
                                       defaultValue: entry.defaultValue, metadata: entry.metadata))
        }
        self.properties = properties
        uniqueKeyPathLists = unique
        indexKeyPathLists = index
        slotByKeyPath = Dictionary(uniqueKeysWithValues: properties.map { ($0.keyPath, $0.index) })
        slotByName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.index) })
        slotByIdentity = IdentityCache(limit: properties.count * 4)
        unsetValues = Array(repeating: nil, count: properties.count)
        relationshipSlots = properties.filter(\.isRelationship).map(\.index)
        let identifierTypes: [any Any.Type] = [PersistentIdentifier.self, PersistentIdentifier?.self, [PersistentIdentifier].self, [PersistentIdentifier]?.self]
        identifierSlots = properties.filter { property in
            property.isRelationship || identifierTypes.contains { $0 == property.valueType }
        }.map(\.index)
        // One backing data class per hierarchy, the root's: the root class's `_$backingData` holds it.
        func backingType<M: PersistentModel>(_: M.Type) -> BackingStorage.Type { ModelBackingData<M.Root>.self }
        self.backingType = backingType(modelType)
        func root<M: PersistentModel>(_: M.Type) -> any PersistentModel.Type { M.Root.self }
        rootType = root(modelType)
    }

    /// A new backing data for this type's models, made through the class object: fetches and new
    /// models make one each in code generic over the model, where naming `ModelBackingData<M>`
    /// looks the generic type's metadata up every time.
    /// `M` is this type or one of its superclasses: the backing data is the hierarchy root's kind.
    package func makeBacking<M: PersistentModel>(as _: M.Type) -> ModelBackingData<M.Root> {
        UnsafeRuntime.downcast(backingType.init(info: self), to: ModelBackingData<M.Root>.self)
    }

    /// A backing data typed for exactly `M`, this type: the hierarchy's kind for a root class.
    package func makeExactBacking<M: PersistentModel>(as _: M.Type) -> ModelBackingData<M> {
        guard rootType == modelType else { return ModelBackingData<M>(info: self) }
        return UnsafeRuntime.downcast(backingType.init(info: self), to: ModelBackingData<M>.self)
    }

    /// The `@Model` class `modelType` directly inherits from, if any.
    package var superclassType: (any PersistentModel.Type)? {
        guard isSubclass, let superclass = _getSuperclass(modelType) else { return nil }
        return superclass as? any PersistentModel.Type
    }

    /// How many of the slots, from the first, are the superclass's properties.
    package var inheritedPropertyCount: Int {
        superclassType.map { ModelTypeInfo.of($0).properties.count } ?? 0
    }

    /// Whether `modelType` inherits from another `@Model` class.
    package var isSubclass: Bool { rootType != modelType }

    /// `#Unique` constraints and `@Attribute(.unique)` properties, as property names.
    package var uniquenessConstraints: [[String]] {
        uniqueKeyPathLists.map { $0.compactMap(propertyName(for:)) }
            + properties.filter { ($0.metadata as? Schema.Attribute)?.isUnique == true }.map { [$0.name] }
    }

    package func slot(for keyPath: AnyKeyPath) -> Int? {
        slotByIdentity.value(for: keyPath) { slotByKeyPath[$0] }
    }

    package func slot(named name: String) -> Int? { slotByName[name] }
    package func property(named name: String) -> Property? { slotByName[name].map { properties[$0] } }
    package func propertyName(for keyPath: AnyKeyPath) -> String? { slotByKeyPath[keyPath].map { properties[$0].name } }

    /// A `Mutex`, not an `NSLock`: every new or fetched model looks its type up here, and the
    /// Foundation lock cost as much as the rest of the lookup.
    private static let cache = Mutex<[ObjectIdentifier: ModelTypeInfo]>([:])
    /// In front of `cache`, which stays the one place an info is made for a type: every insert
    /// and fetch asks several times, and hashing the identifier was most of a lookup's work.
    private static let byType = IdentityCache<ModelTypeInfo>(limit: 4096)

    package static func of(_ modelType: any PersistentModel.Type) -> ModelTypeInfo {
        byType.value(for: modelType) { _ in made(modelType) }
    }

    private static func made(_ modelType: any PersistentModel.Type) -> ModelTypeInfo {
        let key = ObjectIdentifier(modelType)
        if let info = cache.withLock({ $0[key] }) { return info }
        // Built outside the lock: schemaMetadata is user code and may itself touch other model types.
        let info = ModelTypeInfo(modelType)
        return cache.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = info
            return info
        }
    }
}
