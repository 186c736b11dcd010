import Foundation
import OpenSwiftDataCore

/// The declared types the default store reads and writes most, recognised by type identity: asking
/// whether a type is an Optional, or casting a value to a protocol, is a conformance lookup, and
/// the row reader, the value decoder and the value encoder all ask once per value.
enum SQLiteCommonType: Sendable {
    case string, int, double, bool, date, uuid

    /// The common type `type` is, or wraps in one Optional; nil for any other type.
    static func of(_ type: any Any.Type) -> (type: SQLiteCommonType, isOptional: Bool)? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): (.string, false)
        case ObjectIdentifier(String?.self): (.string, true)
        case ObjectIdentifier(Int.self): (.int, false)
        case ObjectIdentifier(Int?.self): (.int, true)
        case ObjectIdentifier(Double.self): (.double, false)
        case ObjectIdentifier(Double?.self): (.double, true)
        case ObjectIdentifier(Bool.self): (.bool, false)
        case ObjectIdentifier(Bool?.self): (.bool, true)
        case ObjectIdentifier(Date.self): (.date, false)
        case ObjectIdentifier(Date?.self): (.date, true)
        case ObjectIdentifier(UUID.self): (.uuid, false)
        case ObjectIdentifier(UUID?.self): (.uuid, true)
        default: nil
        }
    }

    /// The nil of this type's Optional, as a slot holds it.
    var none: Any {
        switch self {
        case .string: String?.none as Any
        case .int: Int?.none as Any
        case .double: Double?.none as Any
        case .bool: Bool?.none as Any
        case .date: Date?.none as Any
        case .uuid: UUID?.none as Any
        }
    }

    /// A read value as its property declares it: itself, or in an Optional of its own type, so
    /// that the slot holds the declared Optional rather than an unwrapped value.
    static func declared<Value>(_ value: Value, optional: Bool) -> Any {
        optional ? Optional(value) as Any : value
    }

    /// The value of an existential whose dynamic type the caller has found to be `Value`, or
    /// `Value?` when `optional`; nil for a nil Optional.
    static func present<Value>(_ value: Any, as _: Value.Type, optional: Bool) -> Value? {
        optional ? takeExactly(value, as: Value?.self) : takeExactly(value, as: Value.self)
    }
}
