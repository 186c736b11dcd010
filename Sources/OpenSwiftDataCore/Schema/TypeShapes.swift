/// Runtime views of generic types, so the schema can tell `T?`, `[T]` and models apart without
/// knowing `T` statically.
package protocol AnyOptional {
    static var optionalWrappedType: any Any.Type { get }
    static var nilValue: Self { get }
    var optionalWrappedValue: Any? { get }
}

extension Optional: AnyOptional {
    package static var optionalWrappedType: any Any.Type { Wrapped.self }
    package static var nilValue: Optional<Wrapped> { nil }
    package var optionalWrappedValue: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}

package protocol AnyArray {
    static var arrayElementType: any Any.Type { get }
}

extension Array: AnyArray {
    package static var arrayElementType: any Any.Type { Element.self }
}

/// The shape of a property's declared type, as far as persistence cares.
package enum PropertyShape {
    case attribute
    case toOne(any PersistentModel.Type, optional: Bool)
    case toMany(any PersistentModel.Type, optional: Bool)

    init(_ type: any Any.Type) {
        var base = type
        var optional = false
        if let wrapped = type as? any AnyOptional.Type {
            base = wrapped.optionalWrappedType
            optional = true
        }
        if let model = base as? any PersistentModel.Type {
            self = .toOne(model, optional: optional)
        } else if let array = base as? any AnyArray.Type, let model = array.arrayElementType as? any PersistentModel.Type {
            self = .toMany(model, optional: optional)
        } else {
            self = .attribute
        }
    }
}

/// `value` as a model when it is one. Casting a non-class value such as an array of models to the
/// class-bound `any PersistentModel` first has Foundation bridge it to an object (an NSArray of
/// boxed elements), so only class instances are cast.
package func modelValue(_ value: Any) -> (any PersistentModel)? {
    guard type(of: value) is AnyClass else { return nil }
    return value as? any PersistentModel
}

/// The identifier a to-one value holds (`PersistentIdentifier?`, as snapshots and the default store
/// hold it), taken out by comparing types; other forms are unwrapped and cast.
package func heldIdentifier(_ value: Any) -> PersistentIdentifier? {
    if holdsExactly(value, PersistentIdentifier?.self) { return takeExactly(value, as: PersistentIdentifier?.self) }
    if holdsExactly(value, PersistentIdentifier.self) { return takeExactly(value, as: PersistentIdentifier.self) }
    return unwrapOptional(value) as? PersistentIdentifier
}

/// The identifiers a to-many value holds, the same way: `as? [PersistentIdentifier]` checks an
/// `Any` element by element.
package func heldIdentifiers(_ value: Any) -> [PersistentIdentifier]? {
    if holdsExactly(value, [PersistentIdentifier].self) { return takeExactly(value, as: [PersistentIdentifier].self) }
    if holdsExactly(value, [PersistentIdentifier]?.self) { return takeExactly(value, as: [PersistentIdentifier]?.self) }
    return unwrapOptional(value) as? [PersistentIdentifier]
}

/// Recursively unwraps `Optional` layers of an `Any` holding a value.
package func unwrapOptional(_ value: Any) -> Any? {
    guard let optional = OptionalTypes.optionalType(type(of: value)) else { return value }
    return optional.wrappedValue(ofOpaque: value).flatMap(unwrapOptional)
}

extension AnyOptional {
    /// The wrapped value of `value`, an Optional of this type: taken out of the existential
    /// without `value as? any AnyOptional`, a conformance lookup inside the dynamic cast machinery.
    fileprivate static func wrappedValue(ofOpaque value: Any) -> Any? {
        takeExactly(value, as: Self.self).optionalWrappedValue
    }
}

/// Which types are Optionals, remembered per type: `value as? any AnyOptional` is a conformance
/// lookup inside the dynamic cast machinery, and relationship upkeep asks for every related model
/// it reads. By identity (``IdentityCache``): a mutex-guarded `Dictionary` hashed each type's
/// identifier.
private enum OptionalTypes {
    private static let known = IdentityCache<(any AnyOptional.Type)?>(limit: 4096)

    static func optionalType(_ type: any Any.Type) -> (any AnyOptional.Type)? {
        known.value(for: type) { $0 as? any AnyOptional.Type }
    }
}

/// The models an unwrapped relationship value holds, for a property of `shape`: by the declared
/// model type first (``declaredModels(_:of:)``, no casts), else by casting (subclasses, models
/// inside existentials); nil when the value holds no models.
package func relationshipModels(in value: Any, shape: PropertyShape) -> [any PersistentModel]? {
    switch shape {
    case .toOne(let type, _), .toMany(let type, _):
        if let models = declaredModels(value, of: type) { return models }
    case .attribute:
        break
    }
    if let model = modelValue(value) { return [model] }
    return value as? [any PersistentModel]
}

/// The models a relationship value holds when it is exactly the declared model type `type` or an
/// array of it (``takeExactly(_:as:)``, no casts); nil for anything else (subclasses, other
/// arrays, models inside existentials), which callers then cast.
package func declaredModels(_ value: Any, of type: any PersistentModel.Type) -> [any PersistentModel]? {
    func open<M: PersistentModel>(_: M.Type) -> [any PersistentModel]? {
        if holdsExactly(value, M.self) { return [takeExactly(value, as: M.self)] }
        if holdsExactly(value, [M].self) { return takeExactly(value, as: [M].self).map { $0 } }
        return nil
    }
    return open(type)
}
