import Foundation

/// A value inside a query: a constant a predicate captured, or a stored attribute's value, in a
/// form every store understands.
///
/// Enumerations with a raw value appear as their raw value, `URL` as its `absoluteString`, and
/// models (and their `persistentModelID`) as ``identifier(_:)``.
///
/// `==` and `hash(into:)` compare structure, so that a query equals itself even when it holds a
/// NaN; ``QueryEvaluator`` applies Swift's own semantics (NaN differs from everything, `-0.0`
/// equals `0.0`).
public enum QueryValue: Sendable {
    /// `nil`.
    case null
    /// A `Bool`.
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// A `Double`; a `Float` widened exactly.
    case double(Double)
    /// A `String`, or a `URL`'s absolute string.
    case string(String)
    /// A `Date`.
    case date(Date)
    /// A `UUID`.
    case uuid(UUID)
    /// Bytes.
    case data(Data)
    /// A model's identifier.
    case identifier(PersistentIdentifier)
    /// A list of values: a collection attribute, a to-many relationship or a captured list.
    case array([QueryValue])
}

extension QueryValue: Hashable {
    /// Whether two values are of the same kind and equal; doubles compare by their bits, so NaN
    /// equals NaN.
    public static func == (lhs: QueryValue, rhs: QueryValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(l), .bool(r)): l == r
        case let (.integer(l), .integer(r)): l == r
        case let (.double(l), .double(r)): l.structuralBits == r.structuralBits
        case let (.string(l), .string(r)): l == r
        case let (.date(l), .date(r)): l == r
        case let (.uuid(l), .uuid(r)): l == r
        case let (.data(l), .data(r)): l == r
        case let (.identifier(l), .identifier(r)): l == r
        case let (.array(l), .array(r)): l == r
        default: false
        }
    }

    /// Hashes the value's kind and contents.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value.structuralBits)
        case .string(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .identifier(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        }
    }
}

extension Double {
    /// Bits that tell every NaN apart from numbers but not from other NaNs.
    fileprivate var structuralBits: UInt64 { isNaN ? Double.nan.bitPattern : bitPattern }
}
