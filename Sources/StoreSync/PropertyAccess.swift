import Foundation
import SwiftData

/// Reading and writing a model's property through its key path, with the value type the key
/// path carries: the engine knows models only by their schema metadata.
///
/// A model the engine creates gets its values through `setValue(forKey:to:)`, as `@Model`'s
/// initializers set them (a key path's setter would read the unset value first); a model that
/// exists is written through its setter, so observers see the change.
protocol AttributeAccess {
    func encode(of model: any PersistentModel, into container: inout KeyedEncodingContainer<PropertyKey>, forKey key: PropertyKey) throws
    func decode(from container: KeyedDecodingContainer<PropertyKey>, forKey key: PropertyKey) throws -> Any
    func value(of model: any PersistentModel) -> Any
    /// Whether the model holds `value` already (false when the type is not `Equatable`).
    func holds(_ value: Any, in model: any PersistentModel) -> Bool
    func setFresh(_ value: Any, on model: any PersistentModel)
    func set(_ value: Any, on model: any PersistentModel)
}

extension ReferenceWritableKeyPath: AttributeAccess where Root: PersistentModel, Value: Codable {
    func encode(of model: any PersistentModel, into container: inout KeyedEncodingContainer<PropertyKey>, forKey key: PropertyKey) throws {
        guard let model = model as? Root else { return }
        try container.encode(model[keyPath: self], forKey: key)
    }

    func decode(from container: KeyedDecodingContainer<PropertyKey>, forKey key: PropertyKey) throws -> Any {
        try container.decode(Value.self, forKey: key)
    }

    func value(of model: any PersistentModel) -> Any {
        guard let model = model as? Root else { return Value?.none as Any }
        return model[keyPath: self]
    }

    func holds(_ value: Any, in model: any PersistentModel) -> Bool {
        guard let model = model as? Root, let value = value as? Value, let current = model[keyPath: self] as? any Equatable else { return false }
        return current.isEqual(toAny: value)
    }

    func setFresh(_ value: Any, on model: any PersistentModel) {
        guard let model = model as? Root, let value = value as? Value else { return }
        model.setValue(forKey: self, to: value)
    }

    func set(_ value: Any, on model: any PersistentModel) {
        guard let model = model as? Root, let value = value as? Value else { return }
        model[keyPath: self] = value
    }
}

/// A to-one relationship declared optional (`var trip: Trip?`).
protocol OptionalToOneAccess {
    func target(of model: any PersistentModel) -> (any PersistentModel)?
    func setFresh(_ target: (any PersistentModel)?, on model: any PersistentModel)
    func set(_ target: (any PersistentModel)?, on model: any PersistentModel)
}

/// `Optional<M>` for a model type `M`: lets a key path extension name the wrapped model type.
protocol OptionalModel {
    associatedtype Wrapped: PersistentModel
    init(wrapping: Wrapped?)
    var wrappedModel: Wrapped? { get }
    /// `path` typed as the key path to `Wrapped?` it is (only `Optional` conforms), for the
    /// `setValue(forKey:to:)` overload of optional to-one relationships.
    static func optionalPath<Root>(_ path: KeyPath<Root, Self>) -> KeyPath<Root, Wrapped?>
}

extension Optional: OptionalModel where Wrapped: PersistentModel {
    init(wrapping: Wrapped?) { self = wrapping }
    var wrappedModel: Wrapped? { self }
    static func optionalPath<Root>(_ path: KeyPath<Root, Self>) -> KeyPath<Root, Wrapped?> { path }
}

extension ReferenceWritableKeyPath: OptionalToOneAccess where Root: PersistentModel, Value: OptionalModel {
    func target(of model: any PersistentModel) -> (any PersistentModel)? {
        (model as? Root)?[keyPath: self].wrappedModel
    }

    func setFresh(_ target: (any PersistentModel)?, on model: any PersistentModel) {
        guard let model = model as? Root else { return }
        model.setValue(forKey: Value.optionalPath(self), to: target as? Value.Wrapped)
    }

    func set(_ target: (any PersistentModel)?, on model: any PersistentModel) {
        guard let model = model as? Root else { return }
        model[keyPath: self] = Value(wrapping: target as? Value.Wrapped)
    }
}

/// A to-one relationship that is not optional (`var trip: Trip`).
protocol RequiredToOneAccess {
    func target(of model: any PersistentModel) -> (any PersistentModel)?
    func setFresh(_ target: (any PersistentModel)?, on model: any PersistentModel)
    func set(_ target: (any PersistentModel)?, on model: any PersistentModel)
}

extension ReferenceWritableKeyPath: RequiredToOneAccess where Root: PersistentModel, Value: PersistentModel {
    func target(of model: any PersistentModel) -> (any PersistentModel)? {
        (model as? Root)?[keyPath: self]
    }

    func setFresh(_ target: (any PersistentModel)?, on model: any PersistentModel) {
        guard let model = model as? Root, let target = target as? Value else { return }
        model.setValue(forKey: self, to: target)
    }

    func set(_ target: (any PersistentModel)?, on model: any PersistentModel) {
        guard let model = model as? Root, let target = target as? Value else { return }
        model[keyPath: self] = target
    }
}

/// A to-many relationship (`[Item]` or `[Item]?`).
protocol ToManyAccess {
    func targets(of model: any PersistentModel) -> [any PersistentModel]
    func setFresh(_ targets: [any PersistentModel], on model: any PersistentModel)
    func set(_ targets: [any PersistentModel], on model: any PersistentModel)
}

extension ReferenceWritableKeyPath: ToManyAccess where Root: PersistentModel, Value: RelationshipCollection {
    func targets(of model: any PersistentModel) -> [any PersistentModel] {
        guard let model = model as? Root else { return [] }
        return (model[keyPath: self] as Any as? [any PersistentModel]) ?? []
    }

    func setFresh(_ targets: [any PersistentModel], on model: any PersistentModel) {
        guard let model = model as? Root, let value = targets as Any as? Value else { return }
        model.setValue(forKey: self, to: value)
    }

    func set(_ targets: [any PersistentModel], on model: any PersistentModel) {
        guard let model = model as? Root, let value = targets as Any as? Value else { return }
        model[keyPath: self] = value
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this value.
    func isEqual(toAny other: Any) -> Bool {
        (other as? Self) == self
    }
}

/// A property name as a coding key.
struct PropertyKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
