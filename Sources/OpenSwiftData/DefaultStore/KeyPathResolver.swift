import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// Maps what a predicate names to what the store holds: model key paths to
/// ``QueryKeyPathResolution``s for ``QueryTranslator``, and the translated property paths to SQL
/// column expressions for ``SQLiteQueryRenderer``.
///
/// Attributes whose SQL form would not compare as Swift compares them resolve to nothing, so
/// predicates and sorts on them run in memory: `UInt`/`UInt64` (large values are BLOBs), Codable
/// values without a query kind, and collections of `Data`, `Float` or unsigned integers (their
/// JSON elements would not equal the bound values).
struct KeyPathResolver: @unchecked Sendable {
    private let resolutions: [AnyKeyPath: QueryKeyPathResolution]
    private let layouts: [String: SQLiteEntityLayout]
    /// Resolutions by key path object, so that no key path a predicate names is hashed.
    private let byIdentity: IdentityCache<QueryKeyPathResolution?>

    init(layouts: [SQLiteEntityLayout]) {
        var resolutions: [AnyKeyPath: QueryKeyPathResolution] = [:]
        for layout in layouts {
            resolutions[ModelQueryResolution.identifierKeyPath(of: layout.info.modelType)] = .identifier
            for (column, property) in zip(layout.table.columns, layout.properties) {
                switch column.storage {
                case .toOne, .toManyByInverse, .toManyByJoinTable:
                    resolutions[property.keyPath] = .relationship(name: column.property, destination: column.destination ?? "",
                                                                  isToMany: column.isToMany, isOptional: column.isOptional)
                default:
                    guard Self.isQueryable(property.valueType), let type = QueryValueType(swiftType: property.valueType) else { continue }
                    resolutions[property.keyPath] = .attribute(name: column.property, kind: type.kind, isOptional: type.isOptional)
                }
            }
        }
        self.resolutions = resolutions
        byIdentity = IdentityCache(limit: resolutions.count * 4 + 16)
        self.layouts = Dictionary(layouts.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Key paths are immutable values, so sharing the table across threads is safe.
    var translator: QueryTranslator {
        QueryTranslator { [self] in resolution(of: $0) }
    }

    private func resolution(of keyPath: AnyKeyPath) -> QueryKeyPathResolution? {
        byIdentity.value(for: keyPath) { resolutions[$0] }
    }

    private static func isQueryable(_ type: any Any.Type) -> Bool {
        let type = (type as? any AnyOptional.Type)?.optionalWrappedType ?? type
        if type is UInt.Type || type is UInt64.Type { return false }
        guard let collection = type as? any QueryCollectionType.Type else { return true }
        let element = (collection.elementType as? any AnyOptional.Type)?.optionalWrappedType ?? collection.elementType
        return !(element is Data.Type || element is Float.Type || element is UInt.Type || element is UInt64.Type)
    }

    /// The SQL for a property path of the fetched entity: its column, or for a path through
    /// to-one relationships a scalar subquery per step (NULL when a relationship is nil).
    ///
    /// Throws, so the query runs in memory, for paths through to-many relationships and for
    /// properties `nanFlags` flags, whose NaN SQL does not compare as Swift; a property that has
    /// held `-0.0` is compared as the REAL its values cast to, and one that has held text not in
    /// NFC as its text in NFC.
    /// `qualifier` names the row the path starts at (default: the entity's table).
    func column(_ path: QueryPropertyPath, of entityName: String, qualifier: String? = nil, nanFlags: SQLiteNaNFlags) throws -> String {
        guard var layout = layouts[entityName], !path.components.isEmpty else {
            throw QueryTranslationError.unsupported("The property path \(path) is not stored")
        }
        var expression = ""
        for (depth, component) in path.components.enumerated() {
            // A subclass's column of the fetched row's hierarchy table, which `as?` reads.
            let shared = depth == 0 && layout.table.hierarchy != nil ? layout.storage.table.column(named: component) : nil
            guard let column = layout.table.column(named: component) ?? shared, column.hasColumn else {
                throw QueryTranslationError.unsupported("The property path \(path) is not a stored column (to-many relationships are rows of another table)")
            }
            if try nanFlags.flags(layout.entityName, component, storage: column.storage) {
                throw QueryTranslationError.unsupported("\(layout.entityName).\(component) has held NaN, which SQL does not compare as Swift")
            }
            let isLast = depth == path.components.count - 1
            let castsToReal = try isLast && nanFlags.holdsSignedZero(layout.entityName, component, storage: column.storage)
            if depth == 0 {
                expression = qualifier.map { "\($0).\(SQL.quote(column.name))" } ?? layout.qualifiedColumns[component] ?? SQL.column(layout.table.name, column.name)
            } else {
                // A step into the related row: the previous expression is that row's key.
                let alias = SQL.quote("p\(depth)")
                expression = "(SELECT \(alias).\(SQL.quote(column.name)) FROM \(SQL.quote(layout.table.name)) AS \(alias) WHERE \(alias).\(SQL.quote(SQL.primaryKey)) = \(expression))"
            }
            // `-0.0` is kept as TEXT, which the cast reads as the `0.0` Swift finds it equal to.
            if castsToReal { expression = "CAST(\(expression) AS REAL)" }
            // Text stored as given compares as Swift's `String` does once in NFC, as bound text is.
            if try isLast && !layout.asciiTextColumns.contains(column.name)
                && nanFlags.holdsUnnormalizedText(table: layout.table.name, column: column.name, storage: column.storage) {
                expression = "\(SQLiteQueryBinding.nfcFunction)(\(expression))"
            }
            guard depth < path.components.count - 1 else { break }
            guard column.storage == .toOne, let destination = column.destination, let next = layouts[destination] else {
                throw QueryTranslationError.unsupported("The property path \(path) goes through a to-many relationship or an attribute")
            }
            layout = next
        }
        return expression
    }

    /// The rows a to-many relationship of the fetched entity leads to, correlated with the
    /// fetched row, for `count`, `isEmpty` and `contains(where:)`; nil for any other path.
    func relatedRows(_ path: QueryPropertyPath, of entityName: String, nanFlags: SQLiteNaNFlags) -> SQLiteRelatedRows? {
        guard path.components.count == 1, let layout = layouts[entityName],
              let column = layout.table.column(named: path.components[0]), let destination = column.destination else { return nil }
        let owner = SQL.column(layout.table.name, SQL.primaryKey)
        let table: String, key: String, link: String
        if column.storage == .toManyByInverse, let inverse = column.inverse {
            (table, key, link) = (SQL.quote(column.destinationTable ?? destination), SQL.quote(SQL.primaryKey), SQL.quote(inverse))
        } else if let joinTable = column.joinTable {
            (table, key, link) = (SQL.quote(joinTable.name), SQL.quote(joinTable.relatedColumn), SQL.quote(joinTable.selfColumn))
        } else {
            return nil
        }
        return SQLiteRelatedRows(table: table, key: key, link: link, owner: owner, destination: SQL.quote(column.destinationTable ?? destination),
                                 destinationKey: SQL.quote(SQL.primaryKey)) { alias, path in
            try self.column(path, of: destination, qualifier: alias, nanFlags: nanFlags)
        }
    }
}
