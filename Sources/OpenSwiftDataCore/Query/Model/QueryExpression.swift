/// A store-neutral filter expression, translated once from a `#Predicate` by ``QueryTranslator``.
///
/// SQL stores render it, in-memory stores evaluate it with ``QueryEvaluator``, and remote stores
/// send it over the wire (it is `Codable`). It means exactly what the predicate means in Swift,
/// so nodes carry the static type facts a renderer needs (see ``QueryValueType``).
///
/// ```swift
/// // #Predicate<Trip> { $0.destination == "Paris" && $0.nights > 3 }
/// .and(
///     .comparison(.property(["destination"]), .equal, .value(.string("Paris")), type: QueryValueType(.string)),
///     .comparison(.property(["nights"]), .greaterThan, .value(.integer(3)), type: QueryValueType(.integer))
/// )
/// ```
public indirect enum QueryExpression: Codable, Sendable, Hashable {
    // MARK: Operands

    /// A constant.
    case value(QueryValue)
    /// A stored property of the fetched model, or of a model it relates to (`["trip", "name"]`).
    /// A path through a relationship is nil when any relationship on the way is nil.
    case property(QueryPropertyPath)
    /// The fetched model's own `persistentModelID`.
    case identifier
    /// The collection element bound by the enclosing ``collectionAny(_:variable:test:)`` or
    /// ``collectionAll(_:variable:test:)`` with this number.
    case variable(Int)
    /// A stored property of the model bound to ``variable(_:)`` with this number (an element of a
    /// to-many relationship), or of a model it relates to: `trip.bucketList.contains { $0.isDone }`
    /// reads `["isDone"]` of each element.
    case elementProperty(Int, QueryPropertyPath)

    // MARK: Comparison and logic

    /// Swift's `==`, `!=`, `<`, `<=`, `>`, `>=` on two operands of `type`.
    case comparison(QueryExpression, QueryComparisonOperator, QueryExpression, type: QueryValueType)
    /// `&&`, evaluated left to right, stopping at the first false.
    case and(QueryExpression, QueryExpression)
    /// `||`, evaluated left to right, stopping at the first true.
    case or(QueryExpression, QueryExpression)
    /// `!`.
    case not(QueryExpression)
    /// `test ? then : else`.
    case conditional(QueryExpression, then: QueryExpression, else: QueryExpression)

    // MARK: Classes

    /// `model is T`: whether the model (``identifier``, the fetched one) is of the entity named
    /// `entityName` or of one of its subentities; false for nil. `model as? T` is a
    /// ``conditional(_:then:else:)`` on it, reading `T`'s properties in `then`.
    case isEntity(QueryExpression, entityName: String)

    // MARK: Numbers

    /// `+`, `-`, `*`, `/` or `%` on two numbers, as Swift computes them on their type.
    case arithmetic(QueryExpression, QueryArithmeticOperator, QueryExpression)
    /// Unary minus.
    case negate(QueryExpression)

    // MARK: Optionals

    /// `value!`: fails evaluation when the value is nil, as Swift's predicate evaluation does.
    case forceUnwrap(QueryExpression)
    /// `value ?? default`.
    case coalesce(QueryExpression, default: QueryExpression)

    // MARK: Strings

    /// `string.contains(other)` with no options (Swift's `Character`-wise search), or
    /// `localizedStandardContains` with `[.caseInsensitive, .diacriticInsensitive, .localized]`.
    case stringContains(QueryExpression, QueryExpression, options: QueryStringOptions)
    /// `string.starts(with: prefix)`, comparing `Character`s as Swift does.
    case startsWith(QueryExpression, prefix: QueryExpression)
    /// `caseInsensitiveCompare` (`[.caseInsensitive]`) or `localizedCompare` (`[.localized]`):
    /// the `ComparisonResult` as an integer, -1, 0 or 1.
    case stringCompare(QueryExpression, QueryExpression, options: QueryStringOptions)

    // MARK: Collections

    /// `.count` of a string (`Character`s, kind `.string`) or of a collection (kind `.array`).
    case count(QueryExpression, of: QueryValueKind)
    /// `.isEmpty` of a string (kind `.string`) or of a collection (kind `.array`).
    case isEmpty(QueryExpression, of: QueryValueKind)
    /// `collection.contains(element)` on a collection-valued operand; `type` is the element's.
    case collectionContains(QueryExpression, element: QueryExpression, type: QueryValueType)
    /// `list.contains(element)` on a captured list of constants; `type` is the element's.
    case `in`(QueryExpression, [QueryValue], type: QueryValueType)
    /// `collection.contains { test }`, with the element bound to ``variable(_:)``.
    case collectionAny(QueryExpression, variable: Int, test: QueryExpression)
    /// `collection.allSatisfy { test }`, with the element bound to ``variable(_:)``.
    case collectionAll(QueryExpression, variable: Int, test: QueryExpression)
}

/// The comparison operators of Swift's `Equatable` and `Comparable`.
public enum QueryComparisonOperator: String, Codable, Sendable, Hashable, CaseIterable {
    /// `==`.
    case equal
    /// `!=`.
    case notEqual
    /// `<`.
    case lessThan
    /// `<=`.
    case lessThanOrEqual
    /// `>`.
    case greaterThan
    /// `>=`.
    case greaterThanOrEqual
}

/// Arithmetic as Swift performs it on the operands' type: `integerDivide` truncates,
/// `floatDivide` is IEEE division, `remainder` is Swift's `%` (truncating).
public enum QueryArithmeticOperator: String, Codable, Sendable, Hashable, CaseIterable {
    /// `+`.
    case add
    /// `-`.
    case subtract
    /// `*`.
    case multiply
    /// `/` on integers, truncating toward zero.
    case integerDivide
    /// `/` on floating-point numbers.
    case floatDivide
    /// `%`, with the sign of the dividend.
    case remainder
}

/// How a string search or comparison treats case, diacritics and the current locale.
public struct QueryStringOptions: OptionSet, Codable, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Creates options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Compares letters regardless of case.
    public static let caseInsensitive = QueryStringOptions(rawValue: 1 << 0)
    /// Compares letters regardless of accents and other diacritics.
    public static let diacriticInsensitive = QueryStringOptions(rawValue: 1 << 1)
    /// Uses the evaluating process's current locale, as Foundation's `localized…` methods do.
    public static let localized = QueryStringOptions(rawValue: 1 << 2)
}
