extension SQLiteQueryRenderer {
    /// `collection.contains(element)` on a collection attribute stored as JSON array text.
    func collectionContains(_ collection: QueryExpression, _ element: QueryExpression, _ type: QueryValueType, _ state: inout SQLiteRenderState) throws -> String {
        guard type.kind != .identifier, type.kind != .array else {
            throw QueryTranslationError.unsupported("contains(_:) on collections of \(type.kind) values is not rendered")
        }
        if case .value(let value) = element, value.containsNaN {
            return "0"
        }
        let source = try sql(collection, &state)
        if case .value(.null) = element {
            return "EXISTS (SELECT 1 FROM json_each(\(source)) WHERE value IS NULL)"
        }
        return "EXISTS (SELECT 1 FROM json_each(\(source)) WHERE value \(type.isOptional ? "IS" : "=") \(try sql(element, &state)))"
    }
}
