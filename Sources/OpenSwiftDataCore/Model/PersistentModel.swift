import Observation

/// A class whose instances SwiftData manages. The `@Model` macro writes the conformance.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, SendableMetatype {
    /// Creates a model around existing storage; a context uses this for the models it fetches.
    init(backingData: any BackingData<Self>)
    /// The storage that holds the model's persisted values.
    var persistentBackingData: any BackingData<Self> { get set }
    /// The model's persisted properties, as `@Model` describes them to the schema.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The model class at the top of the model's class hierarchy: the class itself, unless it
    /// inherits from another `@Model` class (`BusinessTrip.Root` is `Trip`). Models of one
    /// hierarchy share one identity space and one table.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
    associatedtype Root: PersistentModel = Self
}

extension PersistentModel {
    /// Detached storage for a model created with its own initializer, before it is inserted.
    public static func createBackingData<P>() -> some BackingData<P> where P: PersistentModel {
        BackingAdoption.take(for: P.self) ?? ModelTypeInfo.of(P.self).makeExactBacking(as: P.self)
    }

    /// The backing data a `@Model` subclass's initializer fills before `super.init`; the
    /// superclass's `createBackingData()` then adopts it, so the model ends up with one backing
    /// data laid out for its own class. Not for direct use: the `@Model` macro calls it.
    public static func _stagedBackingData() -> any BackingData<Self> {
        BackingAdoption.staged(for: Self.self)
    }

    /// The context the model is registered in, or `nil` before `insert` and after its deletion is saved.
    public var modelContext: ModelContext? { backingStorage?.context }

    /// The model's identity; temporary until the model's first save.
    public var persistentModelID: PersistentIdentifier {
        persistentBackingData.persistentModelID ?? .temporary(entityName: Schema.entityName(for: Self.self))
    }

    /// The model's identity, for `Identifiable`: its ``persistentModelID``.
    public var id: PersistentIdentifier { persistentModelID }

    /// Whether the model has unsaved changes (including a pending insert or delete).
    public var hasChanges: Bool {
        guard let storage = backingStorage, let context = storage.context else { return false }
        return context.hasPendingChange(storage)
    }

    /// Whether the model has been deleted from its context (saved or not).
    public var isDeleted: Bool { backingStorage?.state == .deleted }

    /// Reads a persisted value; the accessors `@Model` writes call this.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: Decodable {
        persistentBackingData.getValue(forKey: key)
    }

    /// Reads a to-one relationship that always holds a model.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    /// Reads an optional to-one relationship.
    public func getValue<Value>(forKey key: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    /// Reads a to-many relationship.
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    /// Reads a to-many relationship whose collection is also `Decodable`.
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
        where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    /// Reads a value persisted through a value transformer.
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    /// Writes a persisted value and records the change; the accessors `@Model` writes call this.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets a to-one relationship, keeping its inverse up to date.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: PersistentModel {
        adoptBackingData()
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets an optional to-one relationship, keeping its inverse up to date.
    public func setValue<Value>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) where Value: PersistentModel {
        adoptBackingData()
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets a to-many relationship, keeping the inverses of the added and removed models up to date.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        adoptBackingData()
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets a to-many relationship whose collection is also `Encodable`, keeping inverses up to date.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
        where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        adoptBackingData()
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Called by the `_modify` accessor `@Model` writes for an array property, between reading
    /// the array and yielding it: a to-many hands its array over (see
    /// `BackingStorage+InPlaceModification.swift`), so that an append changes it in place instead
    /// of copying it. Not for direct use.
    public func _beginInPlaceModification<Value>(forKey key: KeyPath<Self, Value>) {
        adoptBackingData()
        guard let storage = backingStorage, let slot = storage.info.slot(for: key) else { return }
        storage.beginInPlaceModification(at: slot)
    }

    /// A model created with its own initializer meets its backing data here, on its first
    /// relationship write: inverse upkeep needs the model itself.
    private func adoptBackingData() {
        if let storage = backingStorage, storage.model == nil { storage.model = self }
    }

    /// Writes a value persisted through a value transformer.
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setTransformableValue(forKey: key, to: newValue)
    }
}
