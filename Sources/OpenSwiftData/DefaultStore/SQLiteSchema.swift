import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// How one property is stored. Part of the description kept in the store file, so migration can
/// compare what a file holds with what the schema wants.
struct SQLiteColumn: Codable, Hashable, Sendable {
    enum Storage: String, Codable, Sendable {
        case integer, real, text, blob, json
        /// The related row's key, a foreign key to the destination's table.
        case toOne
        /// No column: the destination's to-one `inverse` holds this row's key (one-to-many), so
        /// the relationship is stored once.
        case toManyByInverse
        /// No column: rows of the join table `joinTable` (many-to-many, or a to-many without inverse).
        case toManyByJoinTable
    }

    var property: String
    var storage: Storage
    var isOptional: Bool
    /// The related entity, for relationships.
    var destination: String?
    /// The table holding `destination`'s rows when it is not named after it: the table of the
    /// destination's hierarchy (``EntityHierarchy``). Nil otherwise, so flat entities' stored
    /// descriptions read as before.
    var destinationTable: String?
    /// `.toManyByInverse`: the destination's to-one that holds the key.
    var inverse: String?
    /// `.toManyByJoinTable`: where the pairs are, and which of its columns holds this row's key.
    var joinTable: SQLiteJoinTable?

    var name: String { property }
    /// Every column this property occupies in its entity's table.
    var columnNames: [String] { hasColumn ? [name] : [] }
    var hasColumn: Bool { storage != .toManyByInverse && storage != .toManyByJoinTable }
    var isRelationship: Bool { storage == .toOne || !hasColumn }
    var isToMany: Bool { !hasColumn }

    /// The declared types give SQLite readers (and SQLite's type affinity) the natural type.
    var columnType: ColumnType {
        switch storage {
        case .integer, .toOne: .integer
        case .real: .real
        case .text, .json, .toManyByInverse, .toManyByJoinTable: .text
        case .blob: .blob
        }
    }

    var sqlType: String { SQLiteDialect().typeName(columnType) }

    /// What migration compares: the storage and destination must stay; relationships are
    /// nullable whatever the model says, and to-manys have no column.
    func state(originalName: String?) -> ColumnState {
        ColumnState(name, kind: "\(storage.rawValue) \(destination ?? "")", isNullable: isOptional || isRelationship, hasColumn: hasColumn,
                    originalName: originalName)
    }

    /// Relationship columns may be NULL (a to-one is nil until it is set); attributes are NOT NULL
    /// unless optional, which the query renderer relies on.
    var definition: ColumnDefinition {
        guard storage == .toOne, let destination else { return ColumnDefinition(name, columnType, isNullable: isOptional) }
        return ColumnDefinition(name, .integer, isNullable: true, reference: EntityTableSchema.reference(to: destinationTable ?? destination, onDelete: .setNull))
    }
}

/// The table holding a many-to-many relationship: one row per related pair, deleted with either
/// row. Named after the side that owns it (`osd_Trip.travelers`); both sides read and write it.
struct SQLiteJoinTable: Codable, Hashable, Sendable {
    static let ownerColumn = EntityTableSchema.joinOwnerColumn
    static let memberColumn = EntityTableSchema.joinMemberColumn

    var name: String
    var ownerEntity: String
    var memberEntity: String
    /// Whether the property described is the owner's side (its rows' keys are in `owner`).
    var isOwnerSide: Bool
    /// The tables of the two sides when not named after their entity (a hierarchy's table).
    var ownerTable: String?
    var memberTable: String?

    var selfColumn: String { isOwnerSide ? Self.ownerColumn : Self.memberColumn }
    var relatedColumn: String { isOwnerSide ? Self.memberColumn : Self.ownerColumn }

    var createStatement: String {
        SQLiteDialect().render(EntityTableSchema.joinTable(name, ownerTable: ownerTable ?? ownerEntity, memberTable: memberTable ?? memberEntity))
    }

    var indexStatement: String { SQLiteDialect().render(EntityTableSchema.joinTableMemberIndex(name)) }
}

/// The stored description of one entity's table.
struct SQLiteTable: Codable, Hashable, Sendable {
    var entityName: String
    var columns: [SQLiteColumn]
    /// Property names; each list is one UNIQUE index and one upsert key.
    var uniqueConstraints: [[String]]
    var indices: [[String]]
    /// For an entity of a class hierarchy: the hierarchy's shared table, and the entities whose
    /// rows it covers. Nil for a flat entity, whose table is its own.
    var hierarchy: EntityHierarchy?

    /// The SQL table: the entity's own, or its hierarchy's.
    var name: String { hierarchy?.root ?? entityName }

    func column(named property: String) -> SQLiteColumn? {
        columns.first { $0.property == property }
    }

    var createStatement: String {
        let entity = hierarchy == nil ? [] : [EntityTableSchema.entity]
        let definitions = [EntityTableSchema.key] + entity + columns.filter(\.hasColumn).map(\.definition)
        return SQLiteDialect().render(TableDefinition(name, columns: definitions))
    }

    /// The join tables of its many-to-many relationships (each appears on both sides).
    var joinTables: [SQLiteJoinTable] { columns.compactMap(\.joinTable) }

    /// The indexes the store keeps on the table (``EntityTableSchema/indexes(on:namedAfter:uniqueConstraints:indices:toOneColumns:hasEntityColumn:ifNotExists:)``), by name.
    var indexStatements: [String: String] {
        let indexes = EntityTableSchema.indexes(on: name, namedAfter: name, uniqueConstraints: uniqueConstraints, indices: indices,
                                                toOneColumns: columns.filter { $0.storage == .toOne }.map(\.name), hasEntityColumn: hierarchy != nil, ifNotExists: false)
        return Dictionary(indexes.map { ($0.name, SQLiteDialect().render($0)) }, uniquingKeysWith: { $1 })
    }
}

/// What the store knows about one entity at run time: its stored description and the model type
/// whose snapshots it reads and writes.
///
/// A class: a save and a fetch look it up per row, and copying a struct of this size each
/// time cost more than passing a reference.
final class SQLiteEntityLayout: Sendable {
    let table: SQLiteTable
    /// Per column of `table`: the model property it holds.
    let properties: [ModelTypeInfo.Property]
    /// Per column of `table`: the name it had in older schemas (`@Attribute(originalName:)`).
    let originalNames: [String?]
    let info: ModelTypeInfo
    let writes: SQLiteEntityWrites
    let reader: SQLiteRowReader
    /// The table as the file holds it: `table` itself for a flat entity, the hierarchy's shared
    /// table (every class's columns) for an entity of a hierarchy.
    let storage: SQLiteEntityTable.Storage
    /// `"Trip"."Z_ENT" = 'BusinessTrip'`, which keeps a fetch to the entity's own rows of a
    /// hierarchy's table; nil for a flat entity, whose every row is its own.
    let entityCondition: String?
    /// The same covering its subentities' rows too (a batch delete including subclasses).
    let hierarchyCondition: String?
    /// The relationships whose destination has subentities, so that a related key may be a row of
    /// any class of that hierarchy: their identifiers are made from each row's entity column.
    let polymorphic: [SQLitePolymorphicRelationship]

    var entityName: String { table.entityName }

    /// `storage`: the table holding the entity's rows (``SQLiteHierarchy/storageTables(of:path:)``);
    /// `hierarchies`: the table of each entity that has subentities.
    init(_ entity: SQLiteEntityTable, storage: SQLiteEntityTable.Storage, hierarchies: [String: String]) {
        let table = entity.table
        self.table = table
        info = entity.info
        properties = entity.properties
        originalNames = entity.originalNames
        self.storage = storage
        writes = SQLiteEntityWrites(table: table, properties: properties, storage: storage.table)
        reader = SQLiteRowReader(layout: table, properties: properties, info: info)
        entityCondition = table.hierarchy.map { EntityHierarchy.condition(table: $0.root, entities: [table.entityName]) }
        hierarchyCondition = table.hierarchy.map { EntityHierarchy.condition(table: $0.root, entities: $0.entities) }
        polymorphic = zip(table.columns, properties).compactMap { column, property in
            guard column.isRelationship, let destination = column.destination, let shared = hierarchies[destination] else { return nil }
            return SQLitePolymorphicRelationship(slot: property.index, table: shared, isToMany: column.isToMany)
        }
        selectList = Self.selectList(of: table)
        quotedTable = SQL.quote(table.name)
        keyColumn = SQL.column(table.name, SQL.primaryKey)
        selectAll = "SELECT \(selectList) FROM \(quotedTable)"
        orderByKey = " ORDER BY \(keyColumn)"
        let tableName = table.name
        qualifiedColumns = Dictionary(table.columns.filter(\.hasColumn).map { ($0.property, SQL.column(tableName, $0.name)) },
                                      uniquingKeysWith: { first, _ in first })
        asciiTextColumns = Set(zip(table.columns, properties).filter { column, property in
            (column.storage == .text || column.storage == .json) && !SQLiteValueCoding.mayHoldUnnormalizedText(property.valueType, storage: column.storage)
        }.map(\.0.name))
    }

    /// The entity's own TEXT columns that hold only ASCII (`UUID`s): never flagged as holding
    /// text not in NFC, so queries on them skip the flags.
    let asciiTextColumns: Set<String>

    /// `"Trip"."Z_PK", "Trip"."name", …`: the key, then every column in table order.
    let selectList: String
    /// `"Trip"` and `"Trip"."Z_PK"`, which every query's SQL names.
    let quotedTable: String
    let keyColumn: String
    /// `SELECT <selectList> FROM "Trip"` and ` ORDER BY "Trip"."Z_PK"` (the order of an unsorted fetch).
    let selectAll: String
    let orderByKey: String
    /// Per property with a column: `"Trip"."name"`.
    let qualifiedColumns: [String: String]

    private static func selectList(of table: SQLiteTable) -> String {
        ([SQL.primaryKey] + table.columns.flatMap(\.columnNames)).map { SQL.column(table.name, $0) }.joined(separator: ", ")
    }
}

/// Spelling of identifiers in the store's SQL.
enum SQL {
    /// The integer key column of every entity table (named as in Core Data's stores).
    static let primaryKey = EntityTableSchema.keyColumn
    /// The column of a hierarchy's table naming each row's entity (as Core Data's `Z_ENT`).
    static let entityColumn = EntityHierarchy.entityColumn
    static let metadataTable = StoreTables.metadataTable
    /// Receipts of saves made with an idempotency key (``DefaultStore/save(_:receiptKey:fingerprint:response:)``).
    static let receiptsTable = StoreTables.receiptsTable

    static func quote(_ identifier: String) -> String {
        SQLiteDialect().quotedIdentifier(identifier)
    }

    /// A schema name (an entity's) as an SQL string literal. Only for names from the schema:
    /// values are always bound.
    static func literal(_ name: String) -> String {
        SQLiteDialect().stringLiteral(name)
    }

    static func column(_ table: String, _ column: String) -> String {
        "\(quote(table)).\(quote(column))"
    }
}
