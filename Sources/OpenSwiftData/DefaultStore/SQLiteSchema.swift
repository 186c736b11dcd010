import Foundation

/// How one property is stored: one column named after the property (a to-one relationship has a
/// second one for the related model's entity). Part of the description kept in the store file, so
/// migration can compare what a file holds with what the schema wants.
struct SQLiteColumn: Codable, Hashable, Sendable {
    enum Storage: String, Codable, Sendable {
        case integer, real, text, blob, json
        /// The related row's key (INTEGER) plus its entity in `<name>_entity` (TEXT).
        case toOne
        /// The related rows' keys as a JSON array, in the relationship's order.
        case toMany
    }

    var property: String
    var storage: Storage
    var isOptional: Bool
    /// The related entity, for relationships.
    var destination: String?

    var name: String { property }
    var entityColumn: String? { storage == .toOne ? "\(property)_entity" : nil }
    /// Every column this property occupies.
    var columnNames: [String] { [name] + (entityColumn.map { [$0] } ?? []) }
    var isRelationship: Bool { storage == .toOne || storage == .toMany }

    /// The declared types give SQLite readers (and SQLite's type affinity) the natural type.
    var sqlType: String {
        switch storage {
        case .integer, .toOne: "INTEGER"
        case .real: "REAL"
        case .text, .json, .toMany: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// Relationship columns may be NULL (a to-one is nil until it is set); attributes are NOT NULL
    /// unless optional, which the query renderer relies on.
    var definition: String {
        var parts = ["\(SQL.quote(name)) \(sqlType)\(isOptional || isRelationship ? "" : " NOT NULL")"]
        if let entityColumn { parts.append("\(SQL.quote(entityColumn)) TEXT") }
        return parts.joined(separator: ", ")
    }
}

/// The stored description of one entity's table.
struct SQLiteTable: Codable, Hashable, Sendable {
    var entityName: String
    var columns: [SQLiteColumn]
    /// Property names; each list is one UNIQUE index and one upsert key.
    var uniqueConstraints: [[String]]
    var indices: [[String]]

    var name: String { entityName }

    func column(named property: String) -> SQLiteColumn? {
        columns.first { $0.property == property }
    }

    var createStatement: String {
        let definitions = ["\(SQL.quote(SQL.primaryKey)) INTEGER PRIMARY KEY AUTOINCREMENT"] + columns.map(\.definition)
        return "CREATE TABLE \(SQL.quote(name)) (\(definitions.joined(separator: ", ")))"
    }

    /// The indexes the store keeps on the table, by name: uniqueness constraints, `#Index`es, and
    /// one per to-one key column (deletes look up the rows that refer to a deleted row).
    var indexStatements: [String: String] {
        var statements: [String: String] = [:]
        func add(_ kind: String, _ properties: [String], unique: Bool) {
            let columns = properties.map { column(named: $0)?.name ?? $0 }
            let indexName = "osd_\(name)_\(kind)_\(columns.joined(separator: "_"))"
            statements[indexName] = "CREATE \(unique ? "UNIQUE " : "")INDEX \(SQL.quote(indexName)) ON \(SQL.quote(name)) (\(columns.map(SQL.quote).joined(separator: ", ")))"
        }
        for constraint in uniqueConstraints { add("unique", constraint, unique: true) }
        for index in indices { add("index", index, unique: false) }
        for column in columns where column.storage == .toOne { add("reference", [column.property], unique: false) }
        return statements
    }
}

/// What the store knows about one entity at run time: its stored description and the model type
/// whose snapshots it reads and writes.
struct SQLiteEntityLayout {
    let table: SQLiteTable
    /// Per column of `table`: the model property it holds.
    let properties: [ModelTypeInfo.Property]
    /// Per column of `table`: the name it had in older schemas (`@Attribute(originalName:)`).
    let originalNames: [String?]
    let info: ModelTypeInfo

    var entityName: String { table.entityName }

    /// The entity's table as the schema describes it.
    init(entity: Schema.Entity, path: String) throws {
        guard let modelType = entity.modelType ?? EntityRegistry.modelType(named: entity.name) else {
            throw SQLiteStoreError(.incompatibleSchema, "The entity \(entity.name) has no model class; build the Schema from @Model types (Schema([\(entity.name).self])).", path: path)
        }
        guard !entity.name.hasPrefix("osd_"), !entity.name.lowercased().hasPrefix("sqlite_") else {
            throw SQLiteStoreError(.incompatibleSchema, "The entity name \(entity.name) is reserved for the store's own tables; rename the model class.", path: path)
        }
        info = ModelTypeInfo.of(modelType)
        var columns: [SQLiteColumn] = []
        var properties: [ModelTypeInfo.Property] = []
        var originalNames: [String?] = []
        for property in info.properties {
            let attribute = entity.attributesByName[property.name]
            // Ephemeral attributes are tracked but, as in SwiftData, not persisted.
            if attribute?.isTransient == true { continue }
            let column: SQLiteColumn
            switch property.shape {
            case .attribute:
                column = SQLiteColumn(property: property.name, storage: SQLiteValueCoding.storage(for: property.valueType),
                                      isOptional: property.isOptional)
            case .toOne(let destination, let optional):
                column = SQLiteColumn(property: property.name, storage: .toOne, isOptional: optional,
                                      destination: Schema.entityName(for: destination))
            case .toMany(let destination, let optional):
                column = SQLiteColumn(property: property.name, storage: .toMany, isOptional: optional,
                                      destination: Schema.entityName(for: destination))
            }
            columns.append(column)
            properties.append(property)
            let original = attribute?.originalName ?? entity.relationshipsByName[property.name]?.originalName
            originalNames.append(original.flatMap { $0.isEmpty || $0 == property.name ? nil : $0 })
        }
        let names = columns.flatMap(\.columnNames)
        for name in names where name == SQL.primaryKey || names.filter({ $0 == name }).count > 1 {
            throw SQLiteStoreError(.incompatibleSchema, "\(entity.name).\(name) collides with another column of the table (the key column \(SQL.primaryKey), or the entity column of a to-one relationship); rename the property.", path: path)
        }
        table = SQLiteTable(entityName: entity.name, columns: columns, uniqueConstraints: entity.uniquenessConstraints,
                            indices: entity.indices)
        self.properties = properties
        self.originalNames = originalNames
    }

    /// `"Trip"."Z_PK", "Trip"."name", …`: the key, then every column in table order.
    var selectList: String {
        ([SQL.primaryKey] + table.columns.flatMap(\.columnNames)).map { SQL.column(table.name, $0) }.joined(separator: ", ")
    }
}

/// Spelling of identifiers in the store's SQL.
enum SQL {
    /// The integer key column of every entity table (named as in Core Data's stores).
    static let primaryKey = "Z_PK"
    static let metadataTable = "osd_metadata"

    static func quote(_ identifier: String) -> String {
        "\"\(identifier.replacingOccurrences(of: "\"", with: "\"\""))\""
    }

    static func column(_ table: String, _ column: String) -> String {
        "\(quote(table)).\(quote(column))"
    }
}
