import Foundation

/// A Swift value that has a ``QueryValue`` form.
///
/// The translator converts the constants a predicate captures through this protocol, and stores
/// convert stored values through it before handing them to ``QueryEvaluator``. A conformance must
/// keep Swift's meaning: two values are `==` exactly when their query values are equal, and, for
/// `Comparable` types, `<` agrees with the query values' order.
///
/// Enumerations with a raw value need no conformance: the translator uses their raw value.
public protocol QueryValueConvertible {
    var queryValue: QueryValue { get }
}

extension Bool: QueryValueConvertible {
    public var queryValue: QueryValue { .bool(self) }
}

/// Integers beyond `Int64` become an approximate `.double`; the translator refuses such constants
/// instead of comparing them approximately.
extension QueryValueConvertible where Self: FixedWidthInteger {
    public var queryValue: QueryValue {
        Int64(exactly: self).map(QueryValue.integer) ?? .double(Double(self))
    }
}

extension Int: QueryValueConvertible {}
extension Int8: QueryValueConvertible {}
extension Int16: QueryValueConvertible {}
extension Int32: QueryValueConvertible {}
extension Int64: QueryValueConvertible {}
extension UInt: QueryValueConvertible {}
extension UInt8: QueryValueConvertible {}
extension UInt16: QueryValueConvertible {}
extension UInt32: QueryValueConvertible {}
extension UInt64: QueryValueConvertible {}

extension Float: QueryValueConvertible {
    public var queryValue: QueryValue { .double(Double(self)) }
}

extension Double: QueryValueConvertible {
    public var queryValue: QueryValue { .double(self) }
}

extension String: QueryValueConvertible {
    public var queryValue: QueryValue { .string(self) }
}

extension Date: QueryValueConvertible {
    public var queryValue: QueryValue { .date(self) }
}

extension UUID: QueryValueConvertible {
    public var queryValue: QueryValue { .uuid(self) }
}

extension URL: QueryValueConvertible {
    public var queryValue: QueryValue { .string(absoluteString) }
}

extension Data: QueryValueConvertible {
    public var queryValue: QueryValue { .data(self) }
}

extension PersistentIdentifier: QueryValueConvertible {
    public var queryValue: QueryValue { .identifier(self) }
}

extension Optional: QueryValueConvertible where Wrapped: QueryValueConvertible {
    public var queryValue: QueryValue { self?.queryValue ?? .null }
}

extension Array: QueryValueConvertible where Element: QueryValueConvertible {
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}

extension ContiguousArray: QueryValueConvertible where Element: QueryValueConvertible {
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}

extension Set: QueryValueConvertible where Element: QueryValueConvertible {
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}
