import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// The entities of a class hierarchy share their root's table (``EntityHierarchy``): each row
/// names its entity in `Z_ENT`; a fetch, count or delete of one entity reads its own rows.
extension PostgresEntityLayout {
    /// Gives each entity of a hierarchy the layout of its hierarchy's table, and every entity the
    /// relationships whose destination has subentities.
    static func shareHierarchyTables(_ layouts: [String: PostgresEntityLayout]) throws {
        let members = Dictionary(grouping: layouts.values.filter { $0.hierarchy != nil }, by: \.tableName)
        for (root, entities) in members.sorted(by: { $0.key < $1.key }) {
            guard let rootLayout = layouts[root] else { continue }
            let shared = try PostgresEntityLayout(sharing: entities, root: rootLayout)
            for entity in entities { entity.sharedTable = shared }
        }
        for layout in layouts.values {
            layout.polymorphic = layout.columns.filter { column in
                guard let destination = column.destination else { return false }
                return (layouts[destination]?.hierarchy?.entities.count ?? 0) > 1
            }
        }
    }

    /// The layouts of the tables the database holds: a flat entity's own, one per hierarchy.
    static func tables(of layouts: [String: PostgresEntityLayout]) -> [PostgresEntityLayout] {
        var tables: [String: PostgresEntityLayout] = [:]
        for layout in layouts.values { tables[layout.tableName] = layout.sharedTable ?? layout }
        return tables.values.sorted { $0.entityName < $1.entityName }
    }

    /// `"Vehicle"."Z_ENT" = 'Car'`: the entity's own rows of its hierarchy's table; nil for a
    /// flat entity, whose table holds only its rows.
    var entityCondition: String? {
        hierarchy.map { EntityHierarchy.condition(table: $0.root, entities: [entityName]) }
    }

    /// The rows of the entity and of its subentities.
    var hierarchyCondition: String? {
        hierarchy.map { EntityHierarchy.condition(table: $0.root, entities: $0.entities) }
    }

    /// An insert's `Z_ENT` column and value, for a hierarchy's table.
    var entityInsert: (column: String, value: String)? {
        hierarchy == nil ? nil : (PostgresSQL.quote(PostgresSQL.entityColumn), PostgresSQL.literal(entityName))
    }

    /// What a row written whole as this entity's sets besides its columns: its entity, and NULL
    /// in the columns of the hierarchy's other classes, so that an upsert on a constraint of the
    /// base onto another class's row turns the row into this class's.
    var classAssignments: [String] {
        guard let entityInsert, let sharedTable else { return [] }
        let own = Set(storedColumns.map(\.name))
        return ["\(entityInsert.column) = \(entityInsert.value)"]
            + sharedTable.storedColumns.filter { !own.contains($0.name) }.map { "\(PostgresSQL.quote($0.name)) = NULL" }
    }
}

extension PostgresSQL {
    /// A schema name (an entity's) as a string literal; values are always bound.
    static func literal(_ name: String) -> String {
        PostgreSQLDialect().stringLiteral(name)
    }
}
