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
        let select: (sql: String, binds: PostgresBindings)
        do {
            select = try statement(query, layout: layout, columns: .models)
        } catch DataStoreError.preferInMemoryFilter {
            guard let rows = try swiftFilteredRows(query, layout: layout) else { throw DataStoreError.preferInMemoryFilter }
            return rows
        }
        return try rows(select, layout: layout)
    }

    /// The rows a `SELECT` of ``PostgresEntityLayout/selectList`` reads, with their to-manys.
    func rows(_ select: (sql: String, binds: PostgresBindings), layout: PostgresEntityLayout) throws -> [DataStoreRow] {
        try pool.withConnection { connection in
            let readers = layout.cellReaders
            let scope = self.scope(of: layout.entityName)
            let width = layout.info.properties.count
            var keys: [Int64] = []
            var rows: [DataStoreRow] = []
            for row in try runQuery(select.sql, select.binds, on: connection) {
                // The cells in the select list's order, read in one pass.
                var cells = row.makeIterator()
                guard let keyCell = cells.next() else { continue }
                let key = try keyCell.decode(Int64.self)
                var values = [Any?](repeating: nil, count: width)
                for reader in readers {
                    guard let cell = cells.next() else { break }
                    values[reader.slot] = try value(cell, reader, layout)
                }
                keys.append(key)
                rows.append(DataStoreRow(persistentIdentifier: PersistentIdentifier(scope: scope, primaryKey: .integer(key)), values: values))
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

    private func value(_ cell: PostgresCell, _ column: PostgresEntityLayout.CellReader, _ layout: PostgresEntityLayout) throws -> Any? {
        if let destination = column.toOneDestination {
            guard cell.bytes != nil else { return nil }
            return identifier(destination, try cell.decode(Int64.self))
        }
        do {
            return try column.reader.read(cell)
        } catch {
            throw PostgresStoreError(.invalidValue, "\(layout.entityName).\(column.name) holds a value that cannot be read as \(column.valueType) (\(error)); fix the row or the model.")
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
