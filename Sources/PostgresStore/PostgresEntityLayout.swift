import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// How one persisted property is kept in PostgreSQL.
struct PostgresColumn {
    enum Storage: Equatable {
        case boolean, integer, real, text, uuid, bytes, json
        /// The related row's key, a foreign key to the destination's table.
        case toOne
        /// No column: the destination's to-one `inverse` holds this row's key.
        case toManyByInverse
        /// No column: rows of a join table (many-to-many, or a to-many without inverse).
        case toManyByJoinTable
    }

    let property: ModelTypeInfo.Property
    var storage: Storage
    var isOptional: Bool
    var destination: String?
    /// The table holding `destination`'s rows when it is not named after it: its hierarchy
    /// root's, for a subclass (``EntityHierarchy/table(of:)``).
    var destinationTable: String?
    var inverse: String?
    var joinTable: PostgresJoinTable?
    /// The property's name in the previous version (`originalName`), when it had another.
    var originalName: String?

    var name: String { property.name }
    var hasColumn: Bool { storage != .toManyByInverse && storage != .toManyByJoinTable }

    /// Text is compared in code-point order (`"C"`), Swift's order on the NFC the SQL compares
    /// (``PostgresCanonicalText``).
    var columnType: ColumnType {
        switch storage {
        case .boolean: .boolean
        case .integer, .toOne: .integer
        case .real: .real
        case .text, .json, .toManyByInverse, .toManyByJoinTable: .codePointText
        case .uuid: .uuid
        case .bytes: .blob
        }
    }

    var sqlType: String { PostgreSQLDialect().typeName(columnType) }

    /// The type's name as the catalog (`information_schema.columns.data_type`) reports it.
    var catalogType: String { PostgreSQLDialect().typeName(columnType == .codePointText ? .text : columnType) }

    /// A to-one's column may be NULL (nil until set); its foreign key is added once every table
    /// exists (``foreignKey(in:)``), since tables refer to each other in any order.
    var definition: ColumnDefinition {
        ColumnDefinition(name, columnType, isNullable: isOptional || storage == .toOne)
    }

    /// The to-one's foreign key, added when missing.
    func foreignKey(in entityName: String) -> String? {
        guard storage == .toOne, let destination = destinationTable ?? destination else { return nil }
        let add = PostgresSQL.alter(entityName, .addForeignKey(name: foreignKeyName(in: entityName), column: name,
                                                               reference: EntityTableSchema.reference(to: destination, onDelete: .setNull)))
        return "DO $$ BEGIN \(add); EXCEPTION WHEN duplicate_object THEN NULL; END $$"
    }

    func foreignKeyName(in entityName: String) -> String { "osd_\(entityName)_fk_\(name)" }
}

/// The table of a many-to-many relationship, named after the side whose `Entity.property` sorts
/// first; one row per related pair, deleted with either model.
struct PostgresJoinTable: Hashable {
    static let ownerColumn = EntityTableSchema.joinOwnerColumn
    static let memberColumn = EntityTableSchema.joinMemberColumn

    var name: String
    var ownerEntity: String
    var memberEntity: String
    var isOwnerSide: Bool
    /// The tables holding the owner's and the member's rows, when not named after them (a
    /// subclass's: its hierarchy root's).
    var ownerTable: String?
    var memberTable: String?

    var selfColumn: String { isOwnerSide ? Self.ownerColumn : Self.memberColumn }
    var relatedColumn: String { isOwnerSide ? Self.memberColumn : Self.ownerColumn }

    var createStatements: [String] {
        [PostgreSQLDialect().render(EntityTableSchema.joinTable(name, ownerTable: ownerTable ?? ownerEntity, memberTable: memberTable ?? memberEntity)),
         PostgreSQLDialect().render(EntityTableSchema.joinTableMemberIndex(name))]
    }

    var memberIndexName: String { EntityTableSchema.joinTableMemberIndex(name).name }
}

/// One entity's table: its columns in the model's row order, constraints and indexes. An entity
/// of a class hierarchy keeps its rows in the hierarchy's table (``EntityHierarchy``), of which
/// this is the entity's view; ``storage`` describes the table itself.
final class PostgresEntityLayout: @unchecked Sendable {
    let entityName: String
    let info: ModelTypeInfo
    /// Per persisted property (row order); transient attributes are left out.
    let columns: [PostgresColumn]
    let uniqueConstraints: [[String]]
    let indices: [[String]]
    /// The entity's hierarchy as it sees it; nil for a flat entity.
    let hierarchy: EntityHierarchy?
    /// The hierarchy table's layout, for the entities of a hierarchy (set once, as the store's
    /// layouts are made); nil for a flat entity, whose table is its own.
    var sharedTable: PostgresEntityLayout?
    /// The to-ones and to-manys whose destination has subentities, whose related rows' entities
    /// a fetch reads (set with ``sharedTable``).
    var polymorphic: [PostgresColumn] = []
    /// What every fetch spells the same way, made once rather than per statement.
    private let spelled: Spelled

    private struct Spelled {
        let storedColumns: [PostgresColumn]
        let toManyColumns: [PostgresColumn]
        let table: String
        let keyColumn: String
        let selectList: String
        let cellReaders: [CellReader]

        init(columns: [PostgresColumn], tableName: String) {
            storedColumns = columns.filter(\.hasColumn)
            cellReaders = storedColumns.map(CellReader.init)
            toManyColumns = columns.filter { !$0.hasColumn }
            table = PostgresSQL.quote(tableName)
            keyColumn = "\(table).\(PostgresSQL.quote(PostgresSQL.primaryKey))"
            selectList = ([keyColumn] + storedColumns.map { [table] in "\(table).\(PostgresSQL.quote($0.name))" }).joined(separator: ", ")
        }
    }

    init(entity: Schema.Entity) throws {
        guard let modelType = entity.modelType ?? EntityRegistry.modelType(named: entity.name) else {
            throw PostgresStoreError(.incompatibleSchema, "The entity \(entity.name) has no model class; build the Schema from @Model types.")
        }
        guard !entity.name.hasPrefix("osd_") else {
            throw PostgresStoreError(.incompatibleSchema, "The entity name \(entity.name) is reserved for the store's own tables; rename the model class.")
        }
        entityName = entity.name
        info = ModelTypeInfo.of(modelType)
        hierarchy = EntityHierarchy(of: entity)
        var columns: [PostgresColumn] = []
        for property in info.properties {
            if entity.attributesByName[property.name]?.isTransient == true { continue }
            guard property.name != PostgresSQL.primaryKey else {
                throw PostgresStoreError(.incompatibleSchema, "\(entity.name).\(property.name) collides with the key column; rename the property.")
            }
            switch property.shape {
            case .attribute:
                columns.append(PostgresColumn(property: property, storage: PostgresValueCoding.storage(for: property.valueType), isOptional: property.isOptional))
            case .toOne(let destination, let optional):
                columns.append(PostgresColumn(property: property, storage: .toOne, isOptional: optional, destination: Schema.entityName(for: destination),
                                              destinationTable: EntityHierarchy.table(of: destination)))
            case .toMany(let destination, let optional):
                columns.append(Self.toMany(entity: entity, property: property, destination: destination, isOptional: optional))
            }
            let original = entity.attributesByName[property.name]?.originalName ?? entity.relationshipsByName[property.name]?.originalName
            columns[columns.count - 1].originalName = original.flatMap { $0.isEmpty || $0 == property.name ? nil : $0 }
        }
        if hierarchy != nil, columns.contains(where: { $0.name == PostgresSQL.entityColumn }) {
            throw PostgresStoreError(.incompatibleSchema, "\(entity.name).\(PostgresSQL.entityColumn) collides with the column naming each row's class in a hierarchy's table; rename the property.")
        }
        self.columns = columns
        uniqueConstraints = EntityHierarchy.inherited(entity, \.uniquenessConstraints)
        indices = EntityHierarchy.inherited(entity, \.indices)
        spelled = Spelled(columns: columns, tableName: hierarchy?.root ?? entity.name)
    }

    /// The layout of a hierarchy's table: `members`' columns (a subclass's nullable, as other
    /// classes' rows have none), constraints and indexes; named after the root, as its rows are
    /// the root's view's.
    init(sharing members: [PostgresEntityLayout], root: PostgresEntityLayout) throws {
        let ordered = EntityHierarchy.ordered(members, root: root.entityName, entity: \.entityName)
        let picked = EntityHierarchy.sharedColumns(ordered.map { ($0.entityName, $0.columns) }, name: \.name) {
            $0.storage == $1.storage && $0.destination == $1.destination
        }
        let positions: [(member: Int, position: Int)]
        switch picked {
        case .success(let found): positions = found
        case .failure(let conflict):
            throw PostgresStoreError(.incompatibleSchema, "\(conflict.entity).\(conflict.property) shares the table \(root.entityName) with a property of the same name stored differently in another class of the hierarchy; rename one of them.")
        }
        entityName = root.entityName
        info = root.info
        columns = positions.map { member, position in
            var column = ordered[member].columns[position]
            if ordered[member] !== root { column.isOptional = true }
            return column
        }
        uniqueConstraints = EntityHierarchy.union(ordered.map(\.uniqueConstraints))
        indices = EntityHierarchy.union(ordered.map(\.indices))
        hierarchy = EntityHierarchy(root: root.entityName, entities: ordered.map(\.entityName))
        spelled = Spelled(columns: columns, tableName: root.entityName)
    }

    /// A to-many whose inverse is a to-one is read through that to-one's key; any other through a
    /// join table.
    private static func toMany(entity: Schema.Entity, property: ModelTypeInfo.Property, destination destinationType: any PersistentModel.Type,
                               isOptional: Bool) -> PostgresColumn {
        let destination = Schema.entityName(for: destinationType)
        let destinationTable = EntityHierarchy.table(of: destinationType)
        var column = PostgresColumn(property: property, storage: .toManyByJoinTable, isOptional: isOptional, destination: destination,
                                    destinationTable: destinationTable)
        let inverse = entity.relationshipsByName[property.name]?.inverseName
        let inverseShape = inverse.flatMap { name in
            EntityRegistry.modelType(named: destination).flatMap { ModelTypeInfo.of($0).properties.first { $0.name == name }?.shape }
        }
        if let inverse, case .toOne? = inverseShape {
            column.storage = .toManyByInverse
            column.inverse = inverse
            return column
        }
        let declaring = EntityHierarchy.declaringEntity(of: property.name, in: entity)
        let ownTable = EntityHierarchy(of: declaring).map(\.root).flatMap { $0 == declaring.name ? nil : $0 }
        let mine = "\(declaring.name).\(property.name)"
        let theirs = inverse.map { "\(destination).\($0)" }
        let isOwner = theirs.map { mine <= $0 } ?? true
        column.joinTable = PostgresJoinTable(name: "osd_\(isOwner ? mine : theirs ?? mine)", ownerEntity: isOwner ? declaring.name : destination,
                                             memberEntity: isOwner ? destination : declaring.name, isOwnerSide: isOwner,
                                             ownerTable: isOwner ? ownTable : destinationTable, memberTable: isOwner ? destinationTable : ownTable)
        return column
    }

    func column(named name: String) -> PostgresColumn? { columns.first { $0.name == name } }

    var storedColumns: [PostgresColumn] { spelled.storedColumns }
    var toOneColumns: [PostgresColumn] { columns.filter { $0.storage == .toOne } }
    var attributeColumns: [PostgresColumn] { columns.filter { $0.hasColumn && $0.storage != .toOne } }
    var toManyColumns: [PostgresColumn] { spelled.toManyColumns }

    /// The table holding the entity's rows: its own, or its hierarchy root's.
    var tableName: String { hierarchy?.root ?? entityName }
    var table: String { spelled.table }
    var keyColumn: String { spelled.keyColumn }
    /// `"T"."Z_PK", "T"."a", …`: the key, then every stored column.
    var selectList: String { spelled.selectList }
    /// How to read each cell after the key of a row of ``selectList``, in its order.
    var cellReaders: [CellReader] { spelled.cellReaders }

    /// Where a stored column's cell goes in a row, and how it is read.
    struct CellReader {
        /// The property's index in the row.
        let slot: Int
        /// The destination entity of a to-one, whose cell is the related model's key.
        let toOneDestination: String?
        let reader: PostgresCellReader
        /// For messages.
        let name: String
        let valueType: any Any.Type

        init(_ column: PostgresColumn) {
            slot = column.property.index
            toOneDestination = column.storage == .toOne ? column.destination ?? "" : nil
            reader = PostgresCellReader(column.property.valueType, storage: column.storage)
            name = column.name
            valueType = column.property.valueType
        }
    }

    var createTableStatement: String {
        let entity = hierarchy == nil ? [] : [EntityTableSchema.entity]
        let definitions = [EntityTableSchema.key] + entity + storedColumns.map(\.definition)
        return PostgreSQLDialect().render(TableDefinition(tableName, columns: definitions, ifNotExists: true))
    }

    /// The table's indexes (``EntityTableSchema/indexes(on:namedAfter:uniqueConstraints:indices:toOneColumns:hasEntityColumn:ifNotExists:)``).
    var indexes: [IndexDefinition] {
        EntityTableSchema.indexes(on: tableName, namedAfter: entityName, uniqueConstraints: uniqueConstraints, indices: indices,
                                  toOneColumns: toOneColumns.map(\.name), hasEntityColumn: hierarchy != nil, ifNotExists: true)
    }
}

/// Spelling of the store's SQL.
enum PostgresSQL {
    static let primaryKey = EntityTableSchema.keyColumn
    static let entityColumn = EntityHierarchy.entityColumn
    static let metadataTable = StoreTables.metadataTable
    static let receiptsTable = StoreTables.receiptsTable
    static let nanTable = "osd_nan_columns"

    static func quote(_ identifier: String) -> String {
        PostgreSQLDialect().quotedIdentifier(identifier)
    }

    /// The name PostgreSQL keeps for `name`: its first 63 bytes (`NAMEDATALEN - 1`).
    static func storedName(_ name: String) -> String {
        var bytes = Array(name.utf8.prefix(63))
        while String(bytes: bytes, encoding: .utf8) == nil { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `ALTER TABLE` statement; PostgreSQL has one for every change.
    static func alter(_ table: String, _ change: TableChange) -> String {
        guard let sql = PostgreSQLDialect().render(TableAlteration(table, change)) else { preconditionFailure("PostgreSQL renders every table change") }
        return sql
    }
}
