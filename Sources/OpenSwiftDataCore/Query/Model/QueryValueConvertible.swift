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
    /// The value as a query compares and sorts it.
    var queryValue: QueryValue { get }
}

extension Bool: QueryValueConvertible {
    /// The value as ``QueryValue/bool(_:)``.
    public var queryValue: QueryValue { .bool(self) }
}

/// Integers beyond `Int64` become an approximate `.double`; the translator refuses such constants
/// instead of comparing them approximately.
extension QueryValueConvertible where Self: FixedWidthInteger {
    /// The value as ``QueryValue/integer(_:)``, or as an approximate ``QueryValue/double(_:)``
    /// beyond `Int64`'s range.
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
    /// The value as ``QueryValue/double(_:)``, exactly.
    public var queryValue: QueryValue { .double(Double(self)) }
}

extension Double: QueryValueConvertible {
    /// The value as ``QueryValue/double(_:)``.
    public var queryValue: QueryValue { .double(self) }
}

extension String: QueryValueConvertible {
    /// The value as ``QueryValue/string(_:)``.
    public var queryValue: QueryValue { .string(self) }
}

extension Date: QueryValueConvertible {
    /// The value as ``QueryValue/date(_:)``.
    public var queryValue: QueryValue { .date(self) }
}

extension UUID: QueryValueConvertible {
    /// The value as ``QueryValue/uuid(_:)``.
    public var queryValue: QueryValue { .uuid(self) }
}

extension URL: QueryValueConvertible {
    /// The URL's absolute string, as ``QueryValue/string(_:)``, as stores keep URLs.
    public var queryValue: QueryValue { .string(absoluteString) }
}

extension Data: QueryValueConvertible {
    /// The bytes as ``QueryValue/data(_:)``.
    public var queryValue: QueryValue { .data(self) }
}

extension PersistentIdentifier: QueryValueConvertible {
    /// The identifier as ``QueryValue/identifier(_:)``.
    public var queryValue: QueryValue { .identifier(self) }
}

extension Optional: QueryValueConvertible where Wrapped: QueryValueConvertible {
    /// The wrapped value's query value, or ``QueryValue/null`` for `nil`.
    public var queryValue: QueryValue { self?.queryValue ?? .null }
}

extension Array: QueryValueConvertible where Element: QueryValueConvertible {
    /// The elements' query values, in order, as ``QueryValue/array(_:)``.
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}

extension ContiguousArray: QueryValueConvertible where Element: QueryValueConvertible {
    /// The elements' query values, in order, as ``QueryValue/array(_:)``.
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}

extension Set: QueryValueConvertible where Element: QueryValueConvertible {
    /// The elements' query values, in the set's order, as ``QueryValue/array(_:)``.
    public var queryValue: QueryValue { .array(map(\.queryValue)) }
}
