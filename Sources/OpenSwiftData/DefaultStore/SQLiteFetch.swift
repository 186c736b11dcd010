import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

extension DefaultStore {
    // The typed requests are the store-neutral queries of DefaultStore+Queryable.swift.

    /// The snapshots matching the request's descriptor, filtered, sorted and paged in SQL where
    /// the query translates.
    public final func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultStore.Snapshot> where T: PersistentModel {
        let query = try translate(request.descriptor, sorted: true)
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try fetchSnapshots(query))
    }

    /// The number of models matching the request's descriptor, counted in SQL where the predicate
    /// translates.
    public final func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetchCount(try translate(request.descriptor, sorted: false))
    }

    /// The identifiers of the models matching the request's descriptor.
    public final func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try fetchIdentifiers(try translate(request.descriptor, sorted: true))
    }

    // MARK: Statements

    struct Statement {
        var sql: String
        var values: [DatabaseValue]
        /// The plan the SQL comes from, which keeps its prepared statement.
        var plan: SQLiteSelectPlans.Plan? = nil

        /// The prepared statement: the plan's own, else GRDB's cached one for the SQL.
        func prepared(in db: Database) throws -> GRDB.Statement {
            try plan?.statement(in: db) ?? db.cachedStatement(sql: sql)
        }
    }

    /// The descriptor as a store-neutral query, in this store's own terms; what the translator
    /// refuses is left to the context. Unsorted (counts) leaves the sort out before translating, so
    /// a sort the store cannot run does not stop a count it can.
    func translate<T>(_ descriptor: FetchDescriptor<T>, sorted: Bool) throws -> DataStoreQuery {
        // Copied only to change it: each copy of a descriptor is a generic type lookup and a
        // retain and release of everything in it.
        guard !sorted, !descriptor.sortBy.isEmpty else { return try DataStoreQuery(descriptor, translator: resolver.translator) }
        var unsorted = descriptor
        unsorted.sortBy = []
        return try DataStoreQuery(unsorted, translator: resolver.translator)
    }

    /// `SELECT <columns> FROM "T" [WHERE …] ORDER BY … [LIMIT ? [OFFSET ?]]`: the store's plan for
    /// the query's shape, rendered and kept the first time the shape is seen.
    /// `nanFlags`: the flags to render with, for a caller that asks afterwards whether they were read.
    func selectStatement(_ query: DataStoreQuery, layout: SQLiteEntityLayout, columns: SQLiteSelectPlans.Columns, db: Database,
                         nanFlags given: SQLiteNaNFlags? = nil) throws -> Statement {
        let nanFlags = given ?? SQLiteNaNFlags(db)
        if let shape = Self.shape(of: query) {
            if let plan = selectPlans.plan(for: shape, columns: columns), try plan.textColumns.isEmpty
                || SQLiteMetadata.unnormalizedTextColumns(db).isDisjoint(with: plan.textColumns) {
                return try statement(plan, shape: shape, query: query)
            }
            // Rendered with the constants' positions in their place, so the arguments say which
            // constant each binds; the SQL is the query's own, as rendering never looks at them.
            let rendered = try renderSelect(shape.query, layout: layout, columns: columns, nanFlags: nanFlags)
            if let plan = SQLiteSelectPlans.plan(sql: rendered.sql, renderedArguments: rendered.arguments, constantCount: shape.constants.count) {
                if !nanFlags.consulted {
                    // Replaces a plan whose text columns have since been flagged.
                    plan.textColumns = nanFlags.textColumns
                    selectPlans.keep(plan, for: shape, columns: columns)
                }
                return try statement(plan, shape: shape, query: query)
            }
        }
        let rendered = try renderSelect(query, layout: layout, columns: columns, nanFlags: nanFlags)
        return Statement(sql: rendered.sql, values: try bind(rendered.arguments + Self.paging(query).arguments))
    }

    /// A query's shape as this store renders it: a longer `in` list is bound as one JSON argument.
    private static func shape(of query: DataStoreQuery) -> DataStoreQueryShape? {
        DataStoreQueryShape(query, longestList: SQLiteDialect().largeListThreshold)
    }

    /// The plan's statement with this query's constants and paging, bound in one pass: joining
    /// the argument lists and mapping them would build two arrays a fetch.
    private func statement(_ plan: SQLiteSelectPlans.Plan, shape: DataStoreQueryShape, query: DataStoreQuery) throws -> Statement {
        var values: [DatabaseValue] = []
        values.reserveCapacity(plan.slots.count + 2)
        for slot in plan.slots { values.append(try bound(shape.constants[slot])) }
        // In the order ``paging(_:)`` writes them.
        if let limit = query.fetchLimit { values.append(Int64(limit).databaseValue) }
        if let offset = query.fetchOffset { values.append(Int64(offset).databaseValue) }
        return Statement(sql: plan.sql, values: values, plan: plan)
    }

    /// The SQL, paging included, and the filter's arguments (the paging's are the caller's).
    private func renderSelect(_ query: DataStoreQuery, layout: SQLiteEntityLayout, columns: SQLiteSelectPlans.Columns,
                              nanFlags: SQLiteNaNFlags) throws -> SQLFragment {
        let renderer = renderer(for: layout, nanFlags: nanFlags)
        // Whole models and the unsorted order come prebuilt: each `+=` of the long column list
        // copies and grows the text.
        var sql = switch columns {
        case .models: layout.selectAll
        case .keys: "SELECT \(SQL.column(layout.table.name, SQL.primaryKey)) FROM \(layout.quotedTable)"
        }
        let filter = try renderFilter(query, renderer)
        sql += Self.whereClause(filter, entity: layout.entityCondition)
        let arguments = filter?.arguments ?? []
        if query.sortBy.isEmpty {
            sql += layout.orderByKey
        } else {
            do {
                sql += " ORDER BY \(try renderer.render(query.sortBy))"
            } catch is QueryTranslationError {
                throw DataStoreError.preferInMemorySort
            }
        }
        sql += Self.paging(query).sql
        return SQLFragment(sql, arguments: arguments)
    }

    /// `SELECT COUNT(*) FROM "T" [WHERE …]`, or over a sub-select when the query is paged.
    func countStatement(_ query: DataStoreQuery, layout: SQLiteEntityLayout, db: Database) throws -> Statement {
        let renderer = renderer(for: layout, nanFlags: SQLiteNaNFlags(db))
        let filter = try renderFilter(query, renderer)
        let inner = "FROM \(layout.quotedTable)" + Self.whereClause(filter, entity: layout.entityCondition)
        let arguments = filter?.arguments ?? []
        let paging = Self.paging(query)
        guard !paging.sql.isEmpty else {
            return Statement(sql: "SELECT COUNT(*) \(inner)", values: try bind(arguments))
        }
        let sql = "SELECT COUNT(*) FROM (SELECT 1 \(inner) ORDER BY \(layout.keyColumn)\(paging.sql))"
        return Statement(sql: sql, values: try bind(arguments + paging.arguments))
    }

    /// `SELECT "T"."Z_PK" FROM "T" [WHERE …]` with the rows of a hierarchy's table that `entity`
    /// names (a batch delete, with or without subentities): the entity's own plan when the
    /// condition is its own.
    func keysStatement(_ query: DataStoreQuery, layout: SQLiteEntityLayout, entity: String?, db: Database) throws -> Statement {
        guard entity != layout.entityCondition else { return try selectStatement(query, layout: layout, columns: .keys, db: db) }
        let filter = try renderFilter(query, renderer(for: layout, nanFlags: SQLiteNaNFlags(db)))
        let sql = "SELECT \(layout.keyColumn) FROM \(layout.quotedTable)" + Self.whereClause(filter, entity: entity)
        return Statement(sql: sql, values: try bind(filter?.arguments ?? []))
    }

    /// The renderer for one entity. It reads the NaN flags in the statement's own transaction, so a
    /// NaN saved by another connection a moment ago is seen.
    func renderer(for layout: SQLiteEntityLayout, nanFlags: SQLiteNaNFlags) -> SQLiteQueryRenderer {
        let resolver = resolver
        let entityName = layout.entityName
        return SQLiteQueryRenderer(
            column: { path in try resolver.column(path, of: entityName, nanFlags: nanFlags) },
            identifierColumn: layout.keyColumn,
            primaryKey: { [storeIdentifier] identifier in
                guard identifier.entityName == entityName, identifier.storeIdentifier == storeIdentifier,
                      case .integer(let key) = identifier.primaryKey else { return nil }
                return .integer(key)
            },
            relatedRows: { path in resolver.relatedRows(path, of: entityName, nanFlags: nanFlags) },
            // `is` a class of another hierarchy runs in memory.
            entity: { [layouts] name in EntityHierarchy.typeCheck(layout.table.hierarchy, layouts[name]?.table.hierarchy) }
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

    /// ` WHERE <filter>`, kept to the entity's own rows of a hierarchy's table by `entity`
    /// (``SQLiteEntityLayout/entityCondition``); empty when there is neither.
    static func whereClause(_ filter: SQLFragment?, entity: String?) -> String {
        switch (filter, entity) {
        case (nil, nil): ""
        case (let filter?, nil): " WHERE \(filter.sql)"
        case (nil, let entity?): " WHERE \(entity)"
        case (let filter?, let entity?): " WHERE \(entity) AND (\(filter.sql))"
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
        try arguments.map(bound)
    }

    /// One argument as SQLite binds it; one the store cannot bind sends the filter to the context.
    private func bound(_ value: QueryValue) throws -> DatabaseValue {
        do {
            return try SQLiteQueryBinding.databaseValue(value)
        } catch is QueryTranslationError {
            throw DataStoreError.preferInMemoryFilter
        }
    }

    // MARK: Rows

    /// The rows of `SELECT <layout.selectList>` for a rendered statement, with their to-many keys:
    /// what every fetch of whole models runs. `deferring`: the to-manys kept by their
    /// destination's key are read when first read (`DataStoreDeferredToMany`), not now.
    func rows(_ select: Statement, layout: SQLiteEntityLayout, deferring: Bool = false, db: Database) throws -> Rows {
        var rows = try readRows(select.prepared(in: db), select.values, layout: layout)
        if !layout.reader.toMany.isEmpty, !rows.isEmpty {
            let keys = rows.map(\.key)
            for toMany in layout.reader.toMany {
                if deferring, toMany.isByInverse, !layout.polymorphic.contains(where: { $0.slot == toMany.slot }) {
                    deferToMany(toMany, of: &rows, keys: keys, layout: layout)
                    continue
                }
                let related = try relatedKeys(of: keys, column: toMany.column, db: db)
                let destination = scope(of: toMany.destination)
                for index in rows.indices {
                    let keys = related[rows[index].key] ?? []
                    rows[index].slots[toMany.slot] = keys.map { PersistentIdentifier(scope: destination, primaryKey: .integer($0)) } as Any
                }
            }
        }
        if !layout.polymorphic.isEmpty, !rows.isEmpty { try identifyRelatedEntities(of: &rows, layout: layout, db: db) }
        return rows
    }

    /// The same for a fetch that reads no to-many now (each is kept by its destination's key and
    /// deferred), through a prepared statement alone: it needs no `Database`.
    func rowsDeferringToMany(_ statement: GRDB.Statement, _ values: [DatabaseValue], layout: SQLiteEntityLayout) throws -> Rows {
        var rows = try readRows(statement, values, layout: layout)
        if !layout.reader.toMany.isEmpty, !rows.isEmpty {
            let keys = rows.map(\.key)
            for toMany in layout.reader.toMany { deferToMany(toMany, of: &rows, keys: keys, layout: layout) }
        }
        return rows
    }

    /// Each row's key and its slots as a snapshot holds them (relationships as identifiers).
    typealias Rows = [(key: Int64, slots: [Any?])]

    private func readRows(_ statement: GRDB.Statement, _ values: [DatabaseValue], layout: SQLiteEntityLayout) throws -> Rows {
        let reader = layout.reader
        let scopes = reader.destinations.map(scope(of:))
        var rows: Rows = []
        do {
            try statement.forEachRowBound(values) { handle in
                rows.append(try reader.read(handle, scopes: scopes))
            }
        } catch let error as SQLiteRowReader.FieldError {
            throw SQLiteStoreError(.invalidValue, "\(layout.entityName).\(error.property) of the stored model \(error.key) cannot be read as \(error.valueType) (\(error.underlying)). Check that the model's type matches what was saved, or restore the file.", path: path, underlying: error.underlying)
        }
        return rows
    }

    /// Leaves a to-many kept by its destination's key to be read when first read.
    private func deferToMany(_ toMany: SQLiteRowReader.ToMany, of rows: inout Rows, keys: [Int64], layout: SQLiteEntityLayout) {
        let deferred = deferredRelatedKeys(of: keys, column: toMany.column, layout: layout)
        for index in rows.indices {
            rows[index].slots[toMany.slot] = deferred.reference(forKey: rows[index].key) as Any
        }
    }

    func snapshots(of rows: Rows, layout: SQLiteEntityLayout) -> [DefaultSnapshot] {
        let scope = scope(of: layout.entityName)
        return rows.map { row in
            DefaultSnapshot(persistentIdentifier: PersistentIdentifier(scope: scope, primaryKey: .integer(row.key)),
                            values: SnapshotValues(info: layout.info, slots: row.slots, attributesTyped: true))
        }
    }
}
