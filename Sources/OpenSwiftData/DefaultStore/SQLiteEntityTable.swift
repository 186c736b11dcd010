import Foundation
import OpenSwiftDataCore

/// One entity's table as the schema describes it: its columns and the model properties they
/// hold. For an entity of a class hierarchy it is the entity's view of the hierarchy's shared
/// table (``EntityHierarchy``): the columns of its own and inherited properties.
struct SQLiteEntityTable {
    let table: SQLiteTable
    /// Per column of `table`: the model property it holds.
    let properties: [ModelTypeInfo.Property]
    /// Per column of `table`: the name it had in older schemas (`@Attribute(originalName:)`).
    let originalNames: [String?]
    let info: ModelTypeInfo

    init(entity: Schema.Entity, path: String) throws {
        guard let modelType = entity.modelType ?? EntityRegistry.modelType(named: entity.name) else {
            throw SQLiteStoreError(.incompatibleSchema, "The entity \(entity.name) has no model class; build the Schema from @Model types (Schema([\(entity.name).self])).", path: path)
        }
        guard !entity.name.hasPrefix("osd_"), !entity.name.lowercased().hasPrefix("sqlite_") else {
            throw SQLiteStoreError(.incompatibleSchema, "The entity name \(entity.name) is reserved for the store's own tables; rename the model class.", path: path)
        }
        info = ModelTypeInfo.of(modelType)
        let hierarchy = EntityHierarchy(of: entity)
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
                                      destination: Schema.entityName(for: destination), destinationTable: EntityHierarchy.table(of: destination))
            case .toMany(let destination, let optional):
                column = Self.toManyColumn(entity: entity, table: hierarchy?.root, property: property.name, destination: destination,
                                           isOptional: optional)
            }
            columns.append(column)
            properties.append(property)
            let original = attribute?.originalName ?? entity.relationshipsByName[property.name]?.originalName
            originalNames.append(original.flatMap { $0.isEmpty || $0 == property.name ? nil : $0 })
        }
        let names = columns.flatMap(\.columnNames)
        let reserved = hierarchy == nil ? [SQL.primaryKey] : [SQL.primaryKey, SQL.entityColumn]
        for name in names where reserved.contains(name) || names.filter({ $0 == name }).count > 1 {
            throw SQLiteStoreError(.incompatibleSchema, "\(entity.name).\(name) collides with the store's column \(name) (\(reserved.joined(separator: " and ")) are the store's own); rename the property.", path: path)
        }
        table = SQLiteTable(entityName: entity.name, columns: columns, uniqueConstraints: EntityHierarchy.inherited(entity, \.uniquenessConstraints),
                            indices: EntityHierarchy.inherited(entity, \.indices), hierarchy: hierarchy)
        self.properties = properties
        self.originalNames = originalNames
    }

    /// A to-many whose inverse is a to-one is read through that to-one's key; any other (both
    /// sides to-many, or no inverse) through a join table, owned by the side whose
    /// `Entity.property` sorts first.
    private static func toManyColumn(entity: Schema.Entity, table: String?, property: String, destination destinationType: any PersistentModel.Type,
                                     isOptional: Bool) -> SQLiteColumn {
        let destination = Schema.entityName(for: destinationType)
        let destinationTable = EntityHierarchy.table(of: destinationType)
        var column = SQLiteColumn(property: property, storage: .toManyByJoinTable, isOptional: isOptional, destination: destination,
                                  destinationTable: destinationTable)
        let inverse = entity.relationshipsByName[property]?.inverseName
        let inverseShape = inverse.flatMap { name in
            EntityRegistry.modelType(named: destination).flatMap { ModelTypeInfo.of($0).properties.first { $0.name == name }?.shape }
        }
        if let inverse, case .toOne? = inverseShape {
            column.storage = .toManyByInverse
            column.inverse = inverse
            return column
        }
        let declaring = EntityHierarchy.declaringEntity(of: property, in: entity)
        let mine = "\(declaring.name).\(property)"
        let theirs = inverse.map { "\(destination).\($0)" }
        let isOwner = theirs.map { mine <= $0 } ?? true
        let ownTable = table == declaring.name ? nil : table
        column.joinTable = SQLiteJoinTable(name: "osd_\(isOwner ? mine : theirs ?? mine)", ownerEntity: isOwner ? declaring.name : destination,
                                           memberEntity: isOwner ? destination : declaring.name, isOwnerSide: isOwner,
                                           ownerTable: isOwner ? ownTable : destinationTable, memberTable: isOwner ? destinationTable : ownTable)
        return column
    }
}
