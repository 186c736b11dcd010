import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// Contexts reach the store through rows: each model's values read straight into its row order.
extension PostgresStore: DataStoreRowAccess {
    /// The models of `T` that `descriptor` selects, as rows.
    public func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        try rows(try query(descriptor, sorted: true), layout: try layout(Schema.entityName(for: T.self)))
    }

    /// A save as ``save(_:)`` makes it, answered with each insert's identifier in order.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        let remap = try save(request).remappedIdentifiers
        return request.inserted.map { remap[$0.persistentIdentifier] ?? $0.persistentIdentifier }
    }

    /// The query's models as rows: one statement for the table, one per to-many relationship.
    func rows(_ query: DataStoreQuery, layout: PostgresEntityLayout) throws -> [DataStoreRow] {
        let select = try statement(query, layout: layout, columns: layout.selectList)
        return try pool.withConnection { connection in
            let stored = layout.storedColumns
            var keys: [Int64] = []
            var rows: [DataStoreRow] = []
            for row in try runQuery(select.sql, select.binds, on: connection) {
                let cells = PostgresRandomAccessRow(row)
                let key = try cells[0].decode(Int64.self)
                var values = [Any?](repeating: nil, count: layout.info.properties.count)
                for (offset, column) in stored.enumerated() {
                    values[column.property.index] = try value(cells[offset + 1], column, layout)
                }
                keys.append(key)
                rows.append(DataStoreRow(persistentIdentifier: identifier(layout.entityName, key), values: values))
            }
            guard !rows.isEmpty else { return rows }
            for column in layout.toManyColumns {
                let related = try relatedKeys(column, of: keys, on: connection)
                for index in rows.indices {
                    let identifiers = (related[keys[index]] ?? []).map { identifier(column.destination ?? "", $0) }
                    rows[index].values[column.property.index] = identifiers
                }
            }
            if !layout.polymorphic.isEmpty { try identifyRelatedEntities(of: &rows, layout: layout, on: connection) }
            return rows
        }
    }

    private func value(_ cell: PostgresCell, _ column: PostgresColumn, _ layout: PostgresEntityLayout) throws -> Any? {
        if column.storage == .toOne {
            guard cell.bytes != nil else { return nil }
            return identifier(column.destination ?? "", try cell.decode(Int64.self))
        }
        do {
            return try PostgresValueCoding.value(cell, storage: column.storage, as: column.property.valueType)
        } catch {
            throw PostgresStoreError(.invalidValue, "\(layout.entityName).\(column.name) holds a value that cannot be read as \(column.property.valueType) (\(error)); fix the row or the model.")
        }
    }

    /// The related keys of each of `owners` through a to-many, in key order.
    private func relatedKeys(_ column: PostgresColumn, of owners: [Int64], on connection: PostgresConnection) throws -> [Int64: [Int64]] {
        let sql: String
        if column.storage == .toManyByInverse, let inverse = column.inverse, let destination = column.destination {
            sql = "SELECT \(PostgresSQL.quote(inverse)), \(PostgresSQL.quote(PostgresSQL.primaryKey)) FROM \(PostgresSQL.quote(column.destinationTable ?? destination)) WHERE \(PostgresSQL.quote(inverse)) = ANY($1) ORDER BY 2"
        } else if let joinTable = column.joinTable {
            sql = "SELECT \(PostgresSQL.quote(joinTable.selfColumn)), \(PostgresSQL.quote(joinTable.relatedColumn)) FROM \(PostgresSQL.quote(joinTable.name)) WHERE \(PostgresSQL.quote(joinTable.selfColumn)) = ANY($1) ORDER BY 2"
        } else {
            return [:]
        }
        var binds = PostgresBindings()
        binds.append(owners)
        var related: [Int64: [Int64]] = [:]
        for row in try pool.run(sql, binds, on: connection) {
            let cells = PostgresRandomAccessRow(row)
            related[try cells[0].decode(Int64.self), default: []].append(try cells[1].decode(Int64.self))
        }
        return related
    }
}
