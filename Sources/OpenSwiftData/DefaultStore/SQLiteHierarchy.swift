import Foundation

/// One table per class hierarchy: the root entity's table holds the rows of the root and of
/// every subentity, each row's entity named in its `Z_ENT` column, with the columns of every
/// class's properties (a subclass's added columns hold NULL in the rows of other classes).
///
/// So a relationship whose destination is the base class can hold a subclass's model (a key
/// names one row of one table), and `#Unique` and `#Index` declared on the base hold across the
/// whole hierarchy. An entity without superentity or subentities keeps a table of its own, laid
/// out as before hierarchies existed.
struct SQLiteHierarchy: Codable, Hashable, Sendable {
    /// The root entity, after which the shared table is named.
    var root: String
    /// An entity's view: the entity and its subentities, whose rows a fetch including subclasses
    /// reads. The shared table's description: every entity of the hierarchy.
    var entities: [String]

    /// The hierarchy `entity` belongs to, as the entity sees it; nil when it has neither a
    /// superentity nor subentities.
    init?(of entity: Schema.Entity) {
        var root = entity
        while let parent = root.superentity { root = parent }
        guard !root.subentities.isEmpty else { return nil }
        self.root = root.name
        entities = [entity.name] + Self.descendants(of: entity)
    }

    init(root: String, entities: [String]) {
        self.root = root
        self.entities = entities
    }

    /// The subentities of `entity`, theirs after them, each level by name.
    private static func descendants(of entity: Schema.Entity) -> [String] {
        var names: [String] = []
        var pending = entity.subentities.sorted { $0.name < $1.name }
        while !pending.isEmpty {
            let next = pending.removeFirst()
            names.append(next.name)
            pending += next.subentities.sorted { $0.name < $1.name }
        }
        return names
    }

    /// `"Trip"."Z_ENT" = 'Trip'`, or `IN (…)` for several entities.
    static func condition(table: String, entities: [String]) -> String {
        let column = SQL.column(table, SQL.entityColumn)
        guard entities.count > 1 else { return "\(column) = \(SQL.literal(entities.first ?? ""))" }
        return "\(column) IN (\(entities.map(SQL.literal).joined(separator: ", ")))"
    }

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
            // The root first, so its columns keep their place and their optionality.
            let all = members[root] ?? []
            let ordered = all.filter { $0.table.entityName == root } + all.filter { $0.table.entityName != root }.sorted { $0.table.entityName < $1.table.entityName }
            tables.append(try merged(ordered, root: root, path: path))
        }
        return tables
    }

    private static func merged(_ members: [SQLiteEntityTable], root: String, path: String) throws -> SQLiteEntityTable.Storage {
        var table = SQLiteTable(entityName: root, columns: [], uniqueConstraints: [], indices: [],
                                hierarchy: SQLiteHierarchy(root: root, entities: members.map(\.table.entityName)))
        var properties: [ModelTypeInfo.Property] = []
        var originalNames: [String?] = []
        for member in members {
            let isRoot = member.table.entityName == root
            for (position, column) in member.table.columns.enumerated() {
                if let existing = table.columns.first(where: { $0.property == column.property }) {
                    guard existing.storage == column.storage, existing.destination == column.destination else {
                        throw SQLiteStoreError(.incompatibleSchema, "\(member.table.entityName).\(column.property) shares the table \(root) with a property of the same name stored differently in another class of the hierarchy; rename one of them.", path: path)
                    }
                    continue
                }
                var stored = column
                if !isRoot { stored.isOptional = true }
                table.columns.append(stored)
                properties.append(member.properties[position])
                originalNames.append(member.originalNames[position])
            }
            for list in member.table.uniqueConstraints where !table.uniqueConstraints.contains(list) { table.uniqueConstraints.append(list) }
            for list in member.table.indices where !table.indices.contains(list) { table.indices.append(list) }
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
