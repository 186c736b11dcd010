import Foundation

/// The string operations of predicates, in one place so that ``QueryEvaluator`` and the SQL
/// functions stores register (`SQLiteQueryRenderer.functions`) compute the same thing as Swift.
package enum QueryStringSemantics {
    /// Without options, Swift's `Character`-wise search (`"q\u{303}".contains("q")` is false);
    /// with options, Foundation's `range(of:options:locale:)`, which `localizedStandardContains` is.
    package static func contains(_ string: String, _ other: String, options: QueryStringOptions) -> Bool {
        guard !options.isEmpty else { return characterwiseContains(string, other) }
        return string.range(of: other, options: options.compareOptions, range: nil, locale: options.locale) != nil
    }

    package static func starts(_ string: String, with prefix: String) -> Bool {
        string.starts(with: prefix)
    }

    /// `caseInsensitiveCompare` is `compare(_:options: .caseInsensitive)`; `localizedCompare`
    /// is `compare(_:options: [], locale: .current)`.
    package static func compare(_ string: String, _ other: String, options: QueryStringOptions) -> ComparisonResult {
        string.compare(other, options: options.compareOptions, range: nil, locale: options.locale)
    }

    /// The generic `Collection.contains(_:)` the predicate's `contains` calls, not Foundation's.
    private static func characterwiseContains<C: Collection>(_ base: C, _ other: C) -> Bool where C.Element: Equatable {
        base.contains(other)
    }
}

extension QueryStringOptions {
    var compareOptions: String.CompareOptions {
        var options: String.CompareOptions = []
        if contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        return options
    }

    var locale: Locale? { contains(.localized) ? .current : nil }
}
