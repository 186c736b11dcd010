import Foundation

/// What a predicate node's type translates as, worked out with one dynamic cast per type and kept:
/// casting every node to `any QueryTranslatable` and `any QueryOperandTranslatable` is a
/// conformance lookup per cast, on every fetch.
struct QueryNodeKinds: @unchecked Sendable {
    let translatable: (any QueryTranslatable.Type)?
    let operand: (any QueryOperandTranslatable.Type)?

    // Metatypes are immutable and global, hence the unchecked Sendable above.
    private static let known = IdentityCache<QueryNodeKinds>(limit: 4096)

    static func of<E>(_: E.Type) -> QueryNodeKinds {
        known.value(for: E.self) { type in
            QueryNodeKinds(translatable: type as? any QueryTranslatable.Type, operand: type as? any QueryOperandTranslatable.Type)
        }
    }
}

extension QueryTranslatable {
    /// Translates a node that ``QueryNodeKinds`` found to be of this type.
    static func translate<E>(node: E, _ state: inout TranslationState) throws -> QueryExpression {
        return try UnsafeRuntime.reinterpret(node, as: Self.self).translate(&state)
    }
}

extension QueryOperandTranslatable {
    static func translateOperand<E>(node: E, _ state: inout TranslationState) throws -> QueryOperand {
        return try UnsafeRuntime.reinterpret(node, as: Self.self).translateOperand(&state)
    }
}
