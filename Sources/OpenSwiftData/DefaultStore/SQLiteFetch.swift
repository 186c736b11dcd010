import Foundation
import GRDB

extension DefaultStore {
    // The typed requests are the store-neutral queries of DefaultStore+Queryable.swift.

    public final func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        let query = try translate(request.descriptor, entityName: Schema.entityName(for: T.self), sorted: true)
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try fetchSnapshots(query))
    }

    public final func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetchCount(try translate(request.descriptor, entityName: Schema.entityName(for: T.self), sorted: false))
    }

    public final func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try fetchIdentifiers(try translate(request.descriptor, entityName: Schema.entityName(for: T.self), sorted: true))
    }

    // MARK: Statements

    struct Statement {
        var sql: String
        var values: [DatabaseValue]
        var arguments: StatementArguments { StatementArguments(converted: values) }
    }

    /// The descriptor as a store-neutral query; what the translator refuses is left to the context.
    func translate<T>(_ descriptor: FetchDescriptor<T>, entityName: String, sorted: Bool) throws -> DataStoreQuery {
        do {
            return try resolver.translator.translate(entityName: entityName, predicate: descriptor.predicate,
                                                     sortBy: sorted ? descriptor.sortBy : [],
                                                     fetchLimit: descriptor.fetchLimit, fetchOffset: descriptor.fetchOffset)
        } catch let error as QueryTranslationError {
            throw error.kind == .unsupportedSort ? DataStoreError.preferInMemorySort : DataStoreError.preferInMemoryFilter
        }
    }

    /// `SELECT <columns> FROM "T" [WHERE …] ORDER BY … [LIMIT ? [OFFSET ?]]`.
    func selectStatement(_ query: DataStoreQuery, layout: SQLiteEntityLayout, columns: String, db: Database) throws -> Statement {
        let renderer = try renderer(for: layout, db: db)
        var sql = "SELECT \(columns) FROM \(SQL.quote(layout.table.name))"
        var arguments: [QueryValue] = []
        if let filter = try renderFilter(query, renderer) {
            sql += " WHERE \(filter.sql)"
            arguments += filter.arguments
        }
        do {
            sql += " ORDER BY \(try renderer.render(query.sortBy))"
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemorySort
        }
        let paging = Self.paging(query)
        sql += paging.sql
        arguments += paging.arguments
        return Statement(sql: sql, values: try bind(arguments))
    }

    /// `SELECT COUNT(*) FROM "T" [WHERE …]`, or over a sub-select when the query is paged.
    func countStatement(_ query: DataStoreQuery, layout: SQLiteEntityLayout, db: Database) throws -> Statement {
        let renderer = try renderer(for: layout, db: db)
        var inner = "FROM \(SQL.quote(layout.table.name))"
        var arguments: [QueryValue] = []
        if let filter = try renderFilter(query, renderer) {
            inner += " WHERE \(filter.sql)"
            arguments += filter.arguments
        }
        let paging = Self.paging(query)
        guard !paging.sql.isEmpty else {
            return Statement(sql: "SELECT COUNT(*) \(inner)", values: try bind(arguments))
        }
        let sql = "SELECT COUNT(*) FROM (SELECT 1 \(inner) ORDER BY \(SQL.column(layout.table.name, SQL.primaryKey))\(paging.sql))"
        return Statement(sql: sql, values: try bind(arguments + paging.arguments))
    }

    /// The renderer for one entity. It reads the NaN flags in the statement's own transaction, so a
    /// NaN saved by another connection a moment ago is seen.
    func renderer(for layout: SQLiteEntityLayout, db: Database) throws -> SQLiteQueryRenderer {
        let nanColumns = try SQLiteMetadata.nanColumns(db)
        let resolver = resolver
        let entityName = layout.entityName
        return SQLiteQueryRenderer(
            column: { path in try resolver.column(path, of: entityName, nanColumns: nanColumns) },
            identifierColumn: SQL.column(layout.table.name, SQL.primaryKey),
            primaryKey: { [storeIdentifier] identifier in
                guard identifier.entityName == entityName, identifier.storeIdentifier == storeIdentifier,
                      case .integer(let key) = identifier.primaryKey else { return nil }
                return .integer(key)
            },
            relatedRows: { path in resolver.relatedRows(path, of: entityName, nanColumns: nanColumns) }
        )
    }

    func renderFilter(_ query: DataStoreQuery, _ renderer: SQLiteQueryRenderer) throws -> SQLFragment? {
        guard let filter = query.filter else { return nil }
        do {
            return try renderer.render(filter)
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemoryFilter
        }
    }

    private static func paging(_ query: DataStoreQuery) -> SQLFragment {
        switch (query.fetchLimit, query.fetchOffset) {
        case let (limit?, offset?): SQLFragment(" LIMIT ? OFFSET ?", arguments: [.integer(Int64(limit)), .integer(Int64(offset))])
        case let (limit?, nil): SQLFragment(" LIMIT ?", arguments: [.integer(Int64(limit))])
        // SQLite has no OFFSET without LIMIT; -1 means no limit.
        case let (nil, offset?): SQLFragment(" LIMIT -1 OFFSET ?", arguments: [.integer(Int64(offset))])
        case (nil, nil): SQLFragment("")
        }
    }

    private func bind(_ arguments: [QueryValue]) throws -> [DatabaseValue] {
        do {
            return try arguments.map(SQLiteQueryBinding.databaseValue)
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemoryFilter
        }
    }

    // MARK: Rows

    func identifier(entityName: String, key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: .integer(key))
    }

    /// Every row of the statement, its values read straight from SQLite: GRDB's `row[i]` decodes
    /// each value through a generic path, 600 instructions a value.
    private static func values(of statement: GRDB.Statement, arguments: StatementArguments) throws -> [[DatabaseValue]] {
        let handle = statement.sqliteStatement
        let columns = CInt(statement.columnCount)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        var rows: [[DatabaseValue]] = []
        while try cursor.next() != nil {
            rows.append((0..<columns).map { DatabaseValue(sqliteStatement: handle, index: $0) })
        }
        return rows
    }

    /// The rows of `SELECT <layout.selectList>` for a rendered statement, as snapshots with their
    /// to-many keys: what every fetch of whole models runs.
    func snapshots(_ select: Statement, layout: SQLiteEntityLayout, db: Database) throws -> [DefaultSnapshot] {
        let rows = try Self.values(of: db.cachedStatement(sql: select.sql), arguments: select.arguments)
        let related = try relatedKeys(of: rows.map { Int64.fromDatabaseValue($0[0])! }, layout: layout, db: db)
        return try rows.map { row in try snapshot(of: row, layout: layout, related: related) }
    }

    /// A row of `SELECT <layout.selectList>` as a snapshot; `related` holds its to-many keys
    /// (``relatedKeys(of:layout:db:)``).
    func snapshot(of row: [DatabaseValue], layout: SQLiteEntityLayout, related: [String: [Int64: [Int64]]]) throws -> DefaultSnapshot {
        let key = Int64.fromDatabaseValue(row[0])!
        var values = [Any?](repeating: nil, count: layout.info.properties.count)
        var index = 1
        for (column, property) in zip(layout.table.columns, layout.properties) {
            let stored: DatabaseValue = column.hasColumn ? row[index] : .null
            do {
                switch column.storage {
                case .toOne:
                    let related = try Int64.decoded(stored).map { identifier(entityName: column.destination ?? "", key: $0) }
                    values[property.index] = related as Any
                case .toManyByInverse, .toManyByJoinTable:
                    let keys = related[column.property]?[key] ?? []
                    values[property.index] = keys.map { identifier(entityName: column.destination ?? "", key: $0) } as Any
                default:
                    values[property.index] = try SQLiteValueCoding.value(stored, as: property.valueType)
                }
            } catch {
                throw SQLiteStoreError(.invalidValue, "\(layout.entityName).\(column.property) of the stored model \(key) cannot be read as \(property.valueType) (\(error)). Check that the model's type matches what was saved, or restore the file.", path: path, underlying: error)
            }
            index += column.columnNames.count
        }
        return DefaultSnapshot(persistentIdentifier: identifier(entityName: layout.entityName, key: key),
                               values: SnapshotValues(info: layout.info, slots: values))
    }
}

extension DatabaseValueConvertible {
    /// The value, nil for NULL, or an error for a value of another storage class.
    fileprivate static func decoded(_ value: DatabaseValue) throws -> Self? {
        if value.isNull { return nil }
        guard let converted = Self.fromDatabaseValue(value) else {
            throw ValueCodingError("expected \(Self.self)")
        }
        return converted
    }
}
