import Foundation
import OpenSwiftDataCore

/// The SQLite store's tables of class hierarchies (``EntityHierarchy``): a hierarchy's table
/// as the file holds it, merged from the views of its entities.
enum SQLiteHierarchy {
    /// The store's layouts for `schema`: each entity's table, and the shared table of each
    /// hierarchy, which migration creates and its rows are written to.
    static func layouts(for schema: Schema, path: String) throws -> [SQLiteEntityLayout] {
        let entities = try schema.entities.map { try SQLiteEntityTable(entity: $0, path: path) }
        let storage = Dictionary(try storageTables(of: entities, path: path).map { ($0.table.name, $0) }, uniquingKeysWith: { first, _ in first })
        var hierarchies: [String: String] = [:]
        for entity in entities {
            if let hierarchy = entity.table.hierarchy, hierarchy.entities.count > 1 { hierarchies[entity.table.entityName] = hierarchy.root }
        }
        return entities.map { entity in
            let own = SQLiteEntityTable.Storage(table: entity.table, properties: entity.properties, originalNames: entity.originalNames)
            return SQLiteEntityLayout(entity, storage: storage[entity.table.name] ?? own, hierarchies: hierarchies)
        }
    }

    /// The tables as the file holds them: a flat entity's own, and per hierarchy one table with
    /// the root's columns, then each subentity's added ones (nullable: other classes' rows have
    /// none), its constraints and indexes those of every class.
    static func storageTables(of entities: [SQLiteEntityTable], path: String) throws -> [SQLiteEntityTable.Storage] {
        var tables: [SQLiteEntityTable.Storage] = []
        var members: [String: [SQLiteEntityTable]] = [:]
        var roots: [String] = []
        for entity in entities {
            guard let hierarchy = entity.table.hierarchy else {
                tables.append(SQLiteEntityTable.Storage(table: entity.table, properties: entity.properties, originalNames: entity.originalNames))
                continue
            }
            if members[hierarchy.root] == nil { roots.append(hierarchy.root) }
            members[hierarchy.root, default: []].append(entity)
        }
        for root in roots {
            let ordered = EntityHierarchy.ordered(members[root] ?? [], root: root, entity: \.table.entityName)
            tables.append(try merged(ordered, root: root, path: path))
        }
        return tables
    }

    private static func merged(_ members: [SQLiteEntityTable], root: String, path: String) throws -> SQLiteEntityTable.Storage {
        let picked = EntityHierarchy.sharedColumns(members.map { ($0.table.entityName, $0.table.columns) }, name: \.property) {
            $0.storage == $1.storage && $0.destination == $1.destination
        }
        var table = SQLiteTable(entityName: root, columns: [], uniqueConstraints: EntityHierarchy.union(members.map(\.table.uniqueConstraints)),
                                indices: EntityHierarchy.union(members.map(\.table.indices)),
                                hierarchy: EntityHierarchy(root: root, entities: members.map(\.table.entityName)))
        var properties: [ModelTypeInfo.Property] = []
        var originalNames: [String?] = []
        switch picked {
        case .failure(let conflict):
            throw SQLiteStoreError(.incompatibleSchema, "\(conflict.entity).\(conflict.property) shares the table \(root) with a property of the same name stored differently in another class of the hierarchy; rename one of them.", path: path)
        case .success(let columns):
            for (member, position) in columns {
                var stored = members[member].table.columns[position]
                // Other classes' rows have none of a subclass's values.
                if members[member].table.entityName != root { stored.isOptional = true }
                table.columns.append(stored)
                properties.append(members[member].properties[position])
                originalNames.append(members[member].originalNames[position])
            }
        }
        return SQLiteEntityTable.Storage(table: table, properties: properties, originalNames: originalNames)
    }
}

/// A relationship whose destination has subentities (see ``SQLiteEntityLayout/polymorphic``).
struct SQLitePolymorphicRelationship: Sendable {
    let slot: Int
    /// The destination hierarchy's table, whose entity column names each related row's entity.
    let table: String
    let isToMany: Bool
}

extension SQLiteEntityTable {
    /// A table as the file holds it, with the property and former name of each column, which
    /// migration reads.
    struct Storage {
        let table: SQLiteTable
        let properties: [ModelTypeInfo.Property]
        let originalNames: [String?]
    }
}
