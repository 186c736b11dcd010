import OpenSwiftDataCore

extension EntityHierarchy {
    /// The name of the entity column, the same in every SQL store.
    package static let entityColumn = "Z_ENT"

    /// `"Trip"."Z_ENT" = 'Trip'`, or `IN (…)` for several entities; the same text in SQLite and
    /// PostgreSQL. Entity names come from the schema, never from values.
    package static func condition(table: String, entities: [String]) -> String {
        let column = quoted(table) + "." + quoted(entityColumn)
        let dialect = SQLiteDialect()
        guard entities.count > 1 else { return "\(column) = \(dialect.stringLiteral(entities.first ?? ""))" }
        return "\(column) IN (\(entities.map(dialect.stringLiteral).joined(separator: ", ")))"
    }

    /// The condition that a row of `own`'s table is of `other`'s entity or one of its
    /// subentities (`is`, `as?`); nil when they are not of one hierarchy, which the store cannot
    /// tell in SQL.
    package static func typeCheck(_ own: EntityHierarchy?, _ other: EntityHierarchy?) -> String? {
        guard let own, let other, own.root == other.root else { return nil }
        return condition(table: own.root, entities: other.entities)
    }

    private static func quoted(_ identifier: String) -> String {
        SQLiteDialect().quotedIdentifier(identifier)
    }
}
