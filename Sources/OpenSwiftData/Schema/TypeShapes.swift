import Synchronization

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

/// Recursively unwraps `Optional` layers of an `Any` holding a value.
package func unwrapOptional(_ value: Any) -> Any? {
    guard OptionalTypes.isOptional(type(of: value)) else { return value }
    guard let optional = value as? any AnyOptional else { return value }
    return optional.optionalWrappedValue.flatMap(unwrapOptional)
}

/// Which types are Optionals, remembered per type: `value as? any AnyOptional` is a conformance
/// lookup inside the dynamic cast machinery, about 4,000 instructions, and relationship upkeep asks
/// for every related model it reads. Type metadata lives as long as the process, so a type's
/// identifier is never reused.
private enum OptionalTypes {
    private static let known = Mutex<[ObjectIdentifier: Bool]>([:])

    static func isOptional(_ type: any Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let cached = known.withLock({ $0[key] }) { return cached }
        let isOptional = type is any AnyOptional.Type
        known.withLock { $0[key] = isOptional }
        return isOptional
    }
}
