import GRDB
import GRDBSQLite
import OpenSwiftDataCore

extension DefaultStore {
    /// Gives the related identifiers of relationships whose destination has subentities the
    /// entity each related row has: the row reader made them all of the declared destination, but
    /// a `Trip` relationship may hold a `BusinessTrip`, whose model the context must build as one.
    /// One query per such relationship for the whole result, reading the hierarchy table's
    /// entity column.
    func identifyRelatedEntities(of rows: inout Rows, layout: SQLiteEntityLayout, db: Database) throws {
        var scopes: [String: IdentifierScope] = [:]
        for relationship in layout.polymorphic {
            var keys: [Int64] = []
            for row in rows {
                for identifier in Self.identifiers(in: row.slots[relationship.slot]) {
                    if case .integer(let key) = identifier.primaryKey { keys.append(key) }
                }
            }
            guard !keys.isEmpty else { continue }
            let entities = try entityNames(of: keys, table: relationship.table, db: db)
            func concrete(_ identifier: PersistentIdentifier) -> PersistentIdentifier {
                guard case .integer(let key) = identifier.primaryKey, let entity = entities[key], entity != identifier.entityName else { return identifier }
                let scope = scopes[entity] ?? scope(of: entity)
                scopes[entity] = scope
                return PersistentIdentifier(scope: scope, primaryKey: .integer(key))
            }
            for index in rows.indices {
                let value = rows[index].slots[relationship.slot]
                if relationship.isToMany {
                    guard let identifiers = value as? [PersistentIdentifier] else { continue }
                    rows[index].slots[relationship.slot] = identifiers.map(concrete) as Any
                } else if let identifier = value as? PersistentIdentifier {
                    rows[index].slots[relationship.slot] = Optional(concrete(identifier)) as Any
                }
            }
        }
    }

    /// The identifiers a relationship slot holds as the row reader fills it.
    private static func identifiers(in value: Any?) -> [PersistentIdentifier] {
        if let identifiers = value as? [PersistentIdentifier] { return identifiers }
        if let identifier = value as? PersistentIdentifier { return [identifier] }
        return []
    }

    /// The entity of each of the rows `keys` of a hierarchy's table.
    private func entityNames(of keys: [Int64], table: String, db: Database) throws -> [Int64: String] {
        let list = "[\(keys.map(String.init).joined(separator: ","))]"
        let sql = "SELECT \(SQL.quote(SQL.primaryKey)), \(SQL.quote(SQL.entityColumn)) FROM \(SQL.quote(table)) WHERE \(SQL.quote(SQL.primaryKey)) IN (SELECT value FROM json_each(?))"
        var entities: [Int64: String] = [:]
        try db.cachedStatement(sql: sql).forEachRowBound([list.databaseValue]) { handle in
            guard let text = sqlite3_column_text(handle, 1) else { return }
            entities[sqlite3_column_int64(handle, 0)] = String(cString: text)
        }
        return entities
    }
}
