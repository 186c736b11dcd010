/// A predicate or sort that has no store-neutral form, thrown by ``QueryTranslator`` and by the
/// renderers.
///
/// A store that gets one throws `DataStoreError.preferInMemoryFilter` (for
/// ``Kind/unsupportedPredicate``) or `DataStoreError.preferInMemorySort` (for
/// ``Kind/unsupportedSort``); the context then fetches without that part and applies it itself,
/// so results stay exactly what Swift computes. The message names the construct and never
/// contains captured values.
public struct QueryTranslationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Whether a filter or a sort could not be translated.
    public enum Kind: String, Sendable, Hashable {
        /// The predicate has no store-neutral form; the context filters in memory.
        case unsupportedPredicate
        /// A sort descriptor has no store-neutral form; the context sorts in memory.
        case unsupportedSort
    }

    /// Whether a filter or a sort could not be translated.
    public var kind: Kind
    /// What could not be translated, e.g. "PredicateExpressions.Filter is not translated".
    public var message: String

    /// Creates an error of this kind with a message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message and how the context falls back.
    public var description: String {
        switch kind {
        case .unsupportedPredicate: "\(message); filter in memory (DataStoreError.preferInMemoryFilter)"
        case .unsupportedSort: "\(message); sort in memory (DataStoreError.preferInMemorySort)"
        }
    }

    package static func unsupported(_ message: String) -> QueryTranslationError {
        QueryTranslationError(.unsupportedPredicate, message)
    }

    package static func unsupportedSort(_ message: String) -> QueryTranslationError {
        QueryTranslationError(.unsupportedSort, message)
    }

    /// "PredicateExpressions.Filter is not translated", without generic arguments or module.
    static func unsupported(node: Any.Type) -> QueryTranslationError {
        unsupported("\(typeName(node)) is not translated")
    }

    static func typeName(_ type: Any.Type) -> String {
        let reflected = String(reflecting: type)
        let unqualified = reflected.prefix { $0 != "<" }.split(separator: ":").last ?? ""
        let components = unqualified.split(separator: ".")
        if let index = components.lastIndex(of: "PredicateExpressions") {
            return components[index...].joined(separator: ".")
        }
        return components.last.map(String.init) ?? reflected
    }
}
