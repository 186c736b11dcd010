import OpenSwiftDataCore

extension SQLiteQueryRenderer {
    /// `collection.contains(element)` on a collection attribute stored as JSON array text.
    func collectionContains(_ collection: QueryExpression, _ element: QueryExpression, _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String {
        guard type.kind != .identifier, type.kind != .array else {
            throw QueryTranslationError.unsupported("contains(_:) on collections of \(type.kind) values is not rendered")
        }
        if type.kind != .string { try requireTypedElements() }
        if case .value(let value) = element, value.containsNaN {
            return dialect.literal(false)
        }
        let source = try elements(of: collection, alias: nil, &state)
        if case .value(.null) = element {
            return "EXISTS (SELECT 1 FROM \(source) WHERE value IS NULL)"
        }
        return "EXISTS (SELECT 1 FROM \(source) WHERE value \(type.isOptional ? dialect.nullSafeOperators.equal : "=") \(try sql(element, &state)))"
    }
}
