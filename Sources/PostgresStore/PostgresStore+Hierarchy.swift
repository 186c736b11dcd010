import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// Reading the tables of class hierarchies (``EntityHierarchy``).
extension PostgresStore {
    /// The clauses after `SELECT … FROM "Root"`: `WHERE <entity> [AND (<filter>)]`, then the
    /// order and paging the renderer writes.
    static func clauses(_ query: DataStoreQuery, _ renderer: SQLiteQueryRenderer, keepingTo entity: String) throws -> SQLFragment {
        var rest = query
        rest.filter = nil
        let filter = try query.filter.map { try renderer.render($0) }
        let tail = try renderer.render(rest, firstPlaceholder: (filter?.arguments.count ?? 0) + 1)
        let condition = filter.map { "WHERE \(entity) AND (\($0.sql))" } ?? "WHERE \(entity)"
        return SQLFragment("\(condition) \(tail.sql)", arguments: (filter?.arguments ?? []) + tail.arguments)
    }

    /// Gives the related identifiers of relationships whose destination has subentities the
    /// entity each related row has: they were read as of the declared destination, but a `Trip`
    /// relationship may hold a `BusinessTrip`, whose model the context must build as one. One
    /// query per such relationship for the whole result.
    func identifyRelatedEntities(of rows: inout [DataStoreRow], layout: PostgresEntityLayout, on connection: PostgresConnection) throws {
        for column in layout.polymorphic {
            let slot = column.property.index
            var keys: [Int64] = []
            for row in rows {
                for identifier in Self.identifiers(in: row.values[slot]) {
                    if let key = self.key(of: identifier) { keys.append(key) }
                }
            }
            guard !keys.isEmpty, let destination = column.destination else { continue }
            let entities = try entityNames(of: keys, table: column.destinationTable ?? destination, on: connection)
            func concrete(_ identifier: PersistentIdentifier) -> PersistentIdentifier {
                guard let key = self.key(of: identifier), let entity = entities[key], entity != identifier.entityName else { return identifier }
                return self.identifier(entity, key)
            }
            for index in rows.indices {
                let value = rows[index].values[slot]
                if let identifiers = value as? [PersistentIdentifier] {
                    rows[index].values[slot] = identifiers.map(concrete)
                } else if let identifier = value as? PersistentIdentifier {
                    rows[index].values[slot] = concrete(identifier)
                }
            }
        }
    }

    /// The identifiers a relationship slot holds as ``rows(_:layout:)`` fills it.
    private static func identifiers(in value: Any?) -> [PersistentIdentifier] {
        if let identifiers = value as? [PersistentIdentifier] { return identifiers }
        if let identifier = value as? PersistentIdentifier { return [identifier] }
        return []
    }

    /// The entity of each of the rows `keys` of a hierarchy's table.
    private func entityNames(of keys: [Int64], table: String, on connection: PostgresConnection) throws -> [Int64: String] {
        var binds = PostgresBindings()
        binds.append(keys)
        let key = PostgresSQL.quote(PostgresSQL.primaryKey)
        let sql = "SELECT \(key), \(PostgresSQL.quote(PostgresSQL.entityColumn)) FROM \(PostgresSQL.quote(table)) WHERE \(key) = ANY($1)"
        var entities: [Int64: String] = [:]
        for row in try pool.run(sql, binds, on: connection) {
            let cells = PostgresRandomAccessRow(row)
            entities[try cells[0].decode(Int64.self)] = try cells[1].decode(String.self)
        }
        return entities
    }
}
