/// The storage behind one model instance. A model holds no values itself: each persisted property
/// the `@Model` macro generates is an accessor over its backing data.
public protocol BackingData<Model> {
    /// The model type whose values this storage holds.
    associatedtype Model: PersistentModel
    /// Creates empty storage for a model of this type.
    init(for modelType: Model.Type)
    /// The model's identifier; `nil` until the model is inserted or fetched.
    var persistentModelID: PersistentIdentifier? { get set }
    /// The storage's own information about the model, opaque to the model.
    var metadata: Any { get }
    /// Reads a persisted value.
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: Decodable
    /// Reads a to-one relationship that always holds a model.
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: PersistentModel
    /// Reads an optional to-one relationship.
    func getValue<Value>(forKey: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel
    /// Reads a to-many relationship.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Reads a to-many relationship whose collection is also `Decodable`.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
        where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Reads a value persisted through a value transformer.
    func getTransformableValue<Value>(forKey: KeyPath<Model, Value>) -> Value
    /// Writes a persisted value.
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable
    /// Sets a to-one relationship that always holds a model.
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel
    /// Sets an optional to-one relationship.
    func setValue<Value>(forKey: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel
    /// Sets a to-many relationship.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Sets a to-many relationship whose collection is also `Encodable`.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
        where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement
    /// Writes a value persisted through a value transformer.
    func setTransformableValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value)
}

/// A collection of related models: the type of a to-many relationship property.
public protocol RelationshipCollection {
    /// The type of the related models.
    associatedtype PersistentElement: PersistentModel
}

extension Array: RelationshipCollection where Element: PersistentModel {
    /// The related model type: the array's element.
    public typealias PersistentElement = Element
}

extension Optional: RelationshipCollection where Wrapped: Sequence, Wrapped.Element: PersistentModel {
    /// The related model type: the wrapped collection's element.
    public typealias PersistentElement = Wrapped.Element
}
