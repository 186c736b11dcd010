import Foundation
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// Store-neutral queries rendered by the shared renderer in the PostgreSQL dialect.
extension PostgresStore: QueryableDataStore {
    /// Yes: each call takes a connection of its own from the pool, so a server need not queue
    /// every request behind one that waits on the database.
    public var allowsConcurrentCalls: Bool { true }

    /// The snapshots matching a store-neutral query, in its order.
    public func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        let layout = try layout(query.entityName)
        return try rows(query, layout: layout).map { row in
            DefaultSnapshot(persistentIdentifier: row.persistentIdentifier, values: SnapshotValues(info: layout.info, slots: row.values))
        }
    }

    /// The number of models matching a store-neutral query, counted in SQL.
    public func fetchCount(_ query: DataStoreQuery) throws -> Int {
        let layout = try layout(query.entityName)
        let count: (sql: String, binds: PostgresBindings)
        do {
            count = try countStatement(query, layout: layout)
        } catch DataStoreError.preferInMemoryFilter {
            guard let rows = try swiftFilteredRows(query, layout: layout) else { throw DataStoreError.preferInMemoryFilter }
            return rows.count
        }
        return try pool.withConnection { connection in
            let rows = try runQuery(count.sql, count.binds, on: connection)
            return Int(try PostgresRandomAccessRow(rows[0])[0].decode(Int64.self))
        }
    }

    /// The identifiers of the models matching a store-neutral query, in its order.
    public func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        let layout = try layout(query.entityName)
        let select: (sql: String, binds: PostgresBindings)
        do {
            select = try statement(query, layout: layout, columns: .keys)
        } catch DataStoreError.preferInMemoryFilter {
            guard let rows = try swiftFilteredRows(query, layout: layout) else { throw DataStoreError.preferInMemoryFilter }
            return rows.map(\.persistentIdentifier)
        }
        return try pool.withConnection { connection in
            try runQuery(select.sql, select.binds, on: connection).map { row in
                identifier(layout.entityName, try PostgresRandomAccessRow(row)[0].decode(Int64.self))
            }
        }
    }

    /// Deletes every model matching the query's filter in one statement; foreign keys clear the
    /// to-ones that pointed at them and drop their join-table rows.
    public func deleteModels(matching query: DataStoreQuery) throws {
        try deleteModels(matching: query, author: nil)
    }

    /// ``deleteModels(matching:)``, the history naming the context's author.
    public func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        try deleteModels(matching: query, author: editingState.author)
    }

    /// The batch delete, recorded as one history transaction by `author` of one delete per
    /// model (none when nothing matched), in the delete's own transaction. `includingSubentities`:
    /// the models of the entity's subentities too, each recorded as its own entity's.
    func deleteModels(matching query: DataStoreQuery, author: String?, includingSubentities: Bool = false) throws {
        let layout = try layout(query.entityName)
        let matching = try statement(DataStoreQuery(entityName: query.entityName, filter: query.filter), layout: layout, columns: .keys,
                                     includingSubentities: includingSubentities)
        try retryingConflicts { connection in
            let sql = "DELETE FROM \(layout.table) WHERE \(PostgresSQL.quote(PostgresSQL.primaryKey)) IN (\(matching.sql)) RETURNING \(layout.deletionReturning)"
            let tombstones = try PostgresHistoryWriter.Tombstone.all(deleted: try runQuery(sql, matching.binds, on: connection), layout: layout)
                .sorted { $0.key < $1.key }
            guard !tombstones.isEmpty else { return }
            let changes = tombstones.map { PostgresHistoryWriter.Change(kind: .delete, entityName: $0.entityName, key: $0.key) }
            let number = try PostgresHistoryWriter(pool: pool, connection: connection).record(author: author, changes: changes, tombstones: tombstones)
            try PostgresHistory.applyRetention(configuration.historyRetention, after: number, pool, connection)
        }
    }

    /// A statement whose run-time error means Swift would give a result PostgreSQL cannot (an
    /// overflow to infinity): the context evaluates the query instead.
    func runQuery(_ sql: String, _ binds: PostgresBindings, on connection: PostgresConnection) throws -> [PostgresRow] {
        do {
            return try pool.run(sql, binds, on: connection)
        } catch let error as PostgresStoreError where error.sqlState?.hasPrefix("22") == true {
            throw DataStoreError.preferInMemoryFilter
        }
    }

    /// Whether the query sorts by a `Double` column that has held NaN, which no SQL order puts
    /// where Swift's sort does.
    func sortsByNaN(_ query: DataStoreQuery, layout: PostgresEntityLayout) throws -> Bool {
        let doubles = query.sortBy.filter { $0.kind == .double }.map { $0.path.components.joined(separator: ".") }
        guard !doubles.isEmpty else { return false }
        let flagged = try pool.withConnection { connection in
            var binds = PostgresBindings()
            binds.append(layout.entityName)
            return try pool.run("SELECT property FROM \(PostgresSQL.quote(PostgresSQL.nanTable)) WHERE entity = $1", binds, on: connection)
                .map { try PostgresRandomAccessRow($0)[0].decode(String.self) }
        }
        return doubles.contains { flagged.contains($0) }
    }

    func renderer(for layout: PostgresEntityLayout) -> SQLiteQueryRenderer {
        let entityName = layout.entityName
        return SQLiteQueryRenderer(
            column: { [layouts] path in try Self.columnExpression(path, from: entityName, layouts: layouts, qualifier: nil) },
            identifierColumn: layout.keyColumn,
            primaryKey: { [identifier] id in
                guard id.entityName == entityName, id.storeIdentifier == identifier, case .integer(let key) = id.primaryKey else { return nil }
                return .integer(key)
            },
            relatedRows: { [layouts] path in Self.relatedRows(path, of: entityName, layouts: layouts) },
            // `is` a class of another hierarchy is left to the context.
            entity: { [layouts] name in EntityHierarchy.typeCheck(layout.hierarchy, layouts[name]?.hierarchy) },
            dialect: .postgreSQL
        )
    }

    /// A property path's SQL: its column, or through to-one relationships a scalar subquery per step;
    /// text in NFC (``PostgresCanonicalText``), as queries bind it.
    static func columnExpression(_ path: QueryPropertyPath, from entityName: String, layouts: [String: PostgresEntityLayout], qualifier: String?) throws -> String {
        guard var layout = layouts[entityName], !path.components.isEmpty else {
            throw QueryTranslationError(.unsupportedPredicate, "The property path \(path) is not stored")
        }
        var expression = ""
        var lastStorage: PostgresColumn.Storage?
        for (depth, component) in path.components.enumerated() {
            // A subclass's column of the fetched row's hierarchy table, which `as?` reads.
            let shared = depth == 0 ? layout.sharedTable?.column(named: component) : nil
            guard let column = layout.column(named: component) ?? shared, column.hasColumn else {
                throw QueryTranslationError(.unsupportedPredicate, "The property path \(path) is not a stored column")
            }
            if depth == 0 {
                expression = "\(qualifier ?? layout.table).\(PostgresSQL.quote(column.name))"
            } else {
                let alias = PostgresSQL.quote("p\(depth)")
                expression = "(SELECT \(alias).\(PostgresSQL.quote(column.name)) FROM \(layout.table) AS \(alias) WHERE \(alias).\(PostgresSQL.quote(PostgresSQL.primaryKey)) = \(expression))"
            }
            lastStorage = column.storage
            guard depth < path.components.count - 1 else { break }
            guard column.storage == .toOne, let destination = column.destination, let next = layouts[destination] else {
                throw QueryTranslationError(.unsupportedPredicate, "The property path \(path) goes through a to-many relationship or an attribute")
            }
            layout = next
        }
        return [.text, .json].contains(lastStorage) ? PostgresCanonicalText.expression(expression) : expression
    }

    static func relatedRows(_ path: QueryPropertyPath, of entityName: String, layouts: [String: PostgresEntityLayout]) -> SQLiteRelatedRows? {
        guard path.components.count == 1, let layout = layouts[entityName],
              let column = layout.column(named: path.components[0]), let destination = column.destination, !column.hasColumn else { return nil }
        let key = PostgresSQL.quote(PostgresSQL.primaryKey)
        let destinationTable = PostgresSQL.quote(column.destinationTable ?? destination)
        let table: String, related: String, link: String
        if column.storage == .toManyByInverse, let inverse = column.inverse {
            (table, related, link) = (destinationTable, key, PostgresSQL.quote(inverse))
        } else if let joinTable = column.joinTable {
            (table, related, link) = (PostgresSQL.quote(joinTable.name), PostgresSQL.quote(joinTable.relatedColumn), PostgresSQL.quote(joinTable.selfColumn))
        } else {
            return nil
        }
        return SQLiteRelatedRows(table: table, key: related, link: link, owner: layout.keyColumn, destination: destinationTable,
                                 destinationKey: key) { alias, path in
            try columnExpression(path, from: destination, layouts: layouts, qualifier: alias)
        }
    }
}
