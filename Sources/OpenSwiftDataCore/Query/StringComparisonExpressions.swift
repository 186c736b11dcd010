// `#Predicate` expands `a.localizedStandardContains(b)`, `a.caseInsensitiveCompare(b)` and
// `a.localizedCompare(b)` to `PredicateExpressions.build_localizedStandardContains(a, b)` and so on
// on every platform, but only Apple's Foundation defines those builders. These are the same types
// under the same names, evaluating as Apple's do; Apple's own are used where they exist.
#if !canImport(Darwin)
import Foundation

extension PredicateExpressions {
    /// `root.localizedStandardContains(other)`: a case- and diacritic-insensitive substring test
    /// in the current locale.
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type of the expression's result.
        public typealias Output = Bool

        /// The expression whose string is compared.
        public let root: Root
        /// The expression of the string to compare with.
        public let other: Other

        /// Creates the expression from its two string operands.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates both operands and tests whether the root string contains the other.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
        }
    }

    /// `root.caseInsensitiveCompare(other)`.
    ///
    /// Compare the result with a captured value: `#Predicate` reads `ComparisonResult.orderedAscending`
    /// as a key path, so write `let ascending = ComparisonResult.orderedAscending` outside it.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type of the expression's result.
        public typealias Output = ComparisonResult

        /// The expression whose string is compared.
        public let root: Root
        /// The expression of the string to compare with.
        public let other: Other

        /// Creates the expression from its two string operands.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates both operands and compares them ignoring case.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).caseInsensitiveCompare(try other.evaluate(bindings))
        }
    }

    /// `root.localizedCompare(other)`, in the current locale.
    public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The type of the expression's result.
        public typealias Output = ComparisonResult

        /// The expression whose string is compared.
        public let root: Root
        /// The expression of the string to compare with.
        public let other: Other

        /// Creates the expression from its two string operands.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates both operands and compares them in the current locale.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).localizedCompare(try other.evaluate(bindings))
        }
    }

    /// Builds `StringLocalizedStandardContains`; `#Predicate` calls this for
    /// `localizedStandardContains(_:)`.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }

    /// Builds `StringCaseInsensitiveCompare`; `#Predicate` calls this for
    /// `caseInsensitiveCompare(_:)`.
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }

    /// Builds `StringLocalizedCompare`; `#Predicate` calls this for `localizedCompare(_:)`.
    public static func build_localizedCompare<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedCompare<Root, Other> {
        StringLocalizedCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}

// Encoded as Foundation encodes its two-operand nodes: an unkeyed pair.
extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {
    /// Decodes the expression from its two operands, in order.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(root: try container.decode(Root.self), other: try container.decode(Other.self))
    }

    /// Encodes the expression as its two operands, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(root)
        try container.encode(other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {
    /// Decodes the expression from its two operands, in order.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(root: try container.decode(Root.self), other: try container.decode(Other.self))
    }

    /// Encodes the expression as its two operands, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(root)
        try container.encode(other)
    }
}

extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {
    /// Decodes the expression from its two operands, in order.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(root: try container.decode(Root.self), other: try container.decode(Other.self))
    }

    /// Encodes the expression as its two operands, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(root)
        try container.encode(other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: CustomStringConvertible {
    /// The expression and its operands, for debugging.
    public var description: String { "StringLocalizedStandardContains(root: \(root), other: \(other))" }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: CustomStringConvertible {
    /// The expression and its operands, for debugging.
    public var description: String { "StringCaseInsensitiveCompare(root: \(root), other: \(other))" }
}

extension PredicateExpressions.StringLocalizedCompare: CustomStringConvertible {
    /// The expression and its operands, for debugging.
    public var description: String { "StringLocalizedCompare(root: \(root), other: \(other))" }
}
#endif
