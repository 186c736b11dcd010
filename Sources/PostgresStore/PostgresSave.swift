import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// One save, run inside the transaction the store opened: inserts (upserts on a uniqueness
/// constraint), then updates, then relationships (once every key is known), then deletes.
struct PostgresSave {
    let store: PostgresStore
    let connection: PostgresConnection
    private(set) var remap: [PersistentIdentifier: PersistentIdentifier] = [:]
    /// The number of the history transaction the save recorded.
    private(set) var historyTransaction: Int64 = 0
    private var nanColumns = Set<[String]>()
    /// Each insert's key, and whether the save minted it (false: merged into a stored model).
    private var inserts: [(key: Int64, isNew: Bool)] = []
    private var tombstones: [PostgresHistoryWriter.Tombstone] = []

    init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    mutating func run(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws {
        for snapshot in request.inserted { try insert(snapshot) }
        var written: [(PostgresEntityLayout, Int64, [Any?])] = []
        for snapshot in request.inserted {
            let layout = try store.layout(snapshot.persistentIdentifier.entityName)
            let values = DataStoreRowLayout(for: layout.info.modelType).values(of: snapshot)
            written.append((layout, try key(of: remap[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier), values))
        }
        for snapshot in request.updated {
            let layout = try store.layout(snapshot.persistentIdentifier.entityName)
            let values = DataStoreRowLayout(for: layout.info.modelType).values(of: snapshot)
            let key = try key(of: snapshot.persistentIdentifier)
            try update(layout, key: key, values: values)
            written.append((layout, key, values))
        }
        for (layout, key, values) in written { try writeToOnes(layout, key: key, values: values) }
        for (layout, key, values) in written { try writeToManys(layout, key: key, values: values) }
        try delete(request.deleted)
        for column in nanColumns {
            var binds = PostgresBindings()
            binds.append(column[0])
            binds.append(column[1])
            _ = try run("INSERT INTO \(PostgresSQL.quote(PostgresSQL.nanTable)) (entity, property) VALUES ($1, $2) ON CONFLICT DO NOTHING", binds)
        }
        let deletedKeys = request.deleted.compactMap { snapshot in
            store.key(of: snapshot.persistentIdentifier).map { (snapshot.persistentIdentifier.entityName, $0) }
        }
        let changes = try PostgresHistoryWriter.changes(of: request, inserts: inserts, deletedKeys: deletedKeys, store: store)
        historyTransaction = try PostgresHistoryWriter(pool: store.pool, connection: connection)
            .record(author: request.editingState.author, changes: changes, tombstones: tombstones)
        try PostgresHistory.applyRetention(store.configuration.historyRetention, after: historyTransaction, store.pool, connection)
    }

    private func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        try store.pool.run(sql, binds, on: connection)
    }

    /// The stored key of an identifier of this store, or of a model inserted in this save.
    private func key(of identifier: PersistentIdentifier) throws -> Int64 {
        if let key = store.key(of: remap[identifier] ?? identifier) { return key }
        throw PostgresStoreError(.invalidValue, "The save refers to \(identifier.entityName) model \(identifier), which is neither stored in this store nor inserted in the save; insert it in the same context first.")
    }

    private mutating func attributeBinds(_ layout: PostgresEntityLayout, _ values: [Any?]) throws -> PostgresBindings {
        var binds = PostgresBindings()
        for column in layout.attributeColumns {
            let value = values[column.property.index]
            if let value, let present = PostgresValueCoding.unwrap(value), (present as? Double)?.isNaN == true || (present as? Float)?.isNaN == true {
                nanColumns.insert([layout.entityName, column.name])
            }
            do {
                try PostgresValueCoding.bind(value, into: &binds)
            } catch {
                throw PostgresStoreError(.invalidValue, "\(layout.entityName).\(column.name) cannot be stored: \(error). Nothing was saved.")
            }
        }
        return binds
    }

    /// An insert, or the update of the stored model it equals on a uniqueness constraint (whose
    /// identifier the inserted model then takes).
    private mutating func insert(_ snapshot: DefaultSnapshot) throws {
        let layout = try store.layout(snapshot.persistentIdentifier.entityName)
        let values = DataStoreRowLayout(for: layout.info.modelType).values(of: snapshot)
        let columns = layout.attributeColumns
        let binds = try attributeBinds(layout, values)
        let names = columns.map { PostgresSQL.quote($0.name) }
        let key = PostgresSQL.quote(PostgresSQL.primaryKey)
        var stored: Int64?
        var isNew = false
        if layout.uniqueConstraints.count > 1 {
            stored = try existing(layout, values: values)
            if let stored { try update(layout, key: stored, values: values, changingClass: true) }
        }
        if stored == nil {
            // A hierarchy's row names its entity; on a conflict it becomes this entity's row.
            let entity = layout.entityInsert
            let inserted = (entity.map { [$0.column] } ?? []) + names
            let placeholders = (entity.map { [$0.value] } ?? []) + columns.indices.map { "$\($0 + 1)" }
            var sql = inserted.isEmpty ? "INSERT INTO \(layout.table) DEFAULT VALUES"
                : "INSERT INTO \(layout.table) (\(inserted.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
            if layout.uniqueConstraints.count == 1, !columns.isEmpty {
                sql += " ON CONFLICT (\(layout.conflictTarget(layout.uniqueConstraints[0]))) DO UPDATE SET \((names.map { "\($0) = EXCLUDED.\($0)" } + layout.classAssignments).joined(separator: ", "))"
            }
            // A row `ON CONFLICT` updated has an `xmax`; a new one has none.
            let cells = PostgresRandomAccessRow(try run(sql + " RETURNING \(key), (xmax = 0)", binds)[0])
            stored = try cells[0].decode(Int64.self)
            isNew = try cells[1].decode(Bool.self)
        }
        inserts.append((stored!, isNew))
        remap[snapshot.persistentIdentifier] = store.identifier(layout.entityName, stored!)
    }

    /// The key of the stored model equal to `values` on any of several uniqueness constraints.
    private func existing(_ layout: PostgresEntityLayout, values: [Any?]) throws -> Int64? {
        var binds = PostgresBindings()
        var alternatives: [String] = []
        for constraint in layout.uniqueConstraints {
            var terms: [String] = []
            for property in constraint {
                guard let column = layout.column(named: property), column.hasColumn, column.storage != .toOne else { continue }
                try PostgresValueCoding.bind(values[column.property.index], into: &binds)
                // Text as the lookup index keys it: canonically equivalent spellings are one key.
                terms.append(layout.isText(property)
                    ? "\(PostgresCanonicalText.expression(PostgresSQL.quote(property))) = normalize($\(binds.count), NFC)"
                    : "\(PostgresSQL.quote(property)) = $\(binds.count)")
            }
            if !terms.isEmpty { alternatives.append("(\(terms.joined(separator: " AND ")))") }
        }
        guard !alternatives.isEmpty else { return nil }
        let rows = try run("SELECT \(PostgresSQL.quote(PostgresSQL.primaryKey)) FROM \(layout.table) WHERE \(alternatives.joined(separator: " OR ")) ORDER BY 1 LIMIT 1 FOR UPDATE", binds)
        return try rows.first.map { try PostgresRandomAccessRow($0)[0].decode(Int64.self) }
    }

    /// `changingClass`: an insert merged into a stored row, which may be another class's of the
    /// hierarchy and becomes this entity's.
    private mutating func update(_ layout: PostgresEntityLayout, key: Int64, values: [Any?], changingClass: Bool = false) throws {
        let columns = layout.attributeColumns
        let classAssignments = changingClass ? layout.classAssignments : []
        guard !columns.isEmpty || !classAssignments.isEmpty else { return }
        var binds = try attributeBinds(layout, values)
        binds.append(key)
        let assignments = (columns.enumerated().map { "\(PostgresSQL.quote($1.name)) = $\($0 + 1)" } + classAssignments).joined(separator: ", ")
        _ = try run("UPDATE \(layout.table) SET \(assignments) WHERE \(PostgresSQL.quote(PostgresSQL.primaryKey)) = $\(columns.count + 1)", binds)
    }

    private func relatedKey(_ value: Any?) throws -> Int64? {
        guard let value, let present = PostgresValueCoding.unwrap(value) else { return nil }
        guard let identifier = present as? PersistentIdentifier else {
            throw PostgresStoreError(.invalidValue, "A to-one relationship holds \(type(of: present)), not a PersistentIdentifier.")
        }
        return try key(of: identifier)
    }

    private func relatedKeys(_ value: Any?) throws -> [Int64]? {
        guard let value, let present = PostgresValueCoding.unwrap(value) else { return nil }
        guard let identifiers = present as? [PersistentIdentifier] else {
            throw PostgresStoreError(.invalidValue, "A to-many relationship holds \(type(of: present)), not [PersistentIdentifier].")
        }
        return try identifiers.map { try key(of: $0) }
    }

    private func writeToOnes(_ layout: PostgresEntityLayout, key: Int64, values: [Any?]) throws {
        let columns = layout.toOneColumns
        guard !columns.isEmpty else { return }
        var binds = PostgresBindings()
        for column in columns { binds.append(try relatedKey(values[column.property.index])) }
        binds.append(key)
        let assignments = columns.enumerated().map { "\(PostgresSQL.quote($1.name)) = $\($0 + 1)" }.joined(separator: ", ")
        _ = try run("UPDATE \(layout.table) SET \(assignments) WHERE \(PostgresSQL.quote(PostgresSQL.primaryKey)) = $\(columns.count + 1)", binds)
    }

    /// A to-many's side of the pairs: join-table rows replaced, or the destinations' inverse keys
    /// set (and cleared on those no longer related). A nil value is one the context never read.
    private func writeToManys(_ layout: PostgresEntityLayout, key: Int64, values: [Any?]) throws {
        for column in layout.toManyColumns {
            let value = values[column.property.index]
            guard let related = try relatedKeys(value) ?? (column.isOptional && value != nil ? [] : nil) else { continue }
            var binds = PostgresBindings()
            binds.append(key)
            binds.append(related)
            if let joinTable = column.joinTable {
                let table = PostgresSQL.quote(joinTable.name), mine = PostgresSQL.quote(joinTable.selfColumn), theirs = PostgresSQL.quote(joinTable.relatedColumn)
                _ = try run("DELETE FROM \(table) WHERE \(mine) = $1 AND NOT (\(theirs) = ANY($2))", binds)
                _ = try run("INSERT INTO \(table) (\(mine), \(theirs)) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING", binds)
            } else if let inverse = column.inverse, let destination = column.destination {
                let table = PostgresSQL.quote(column.destinationTable ?? destination), link = PostgresSQL.quote(inverse), pk = PostgresSQL.quote(PostgresSQL.primaryKey)
                _ = try run("UPDATE \(table) SET \(link) = NULL WHERE \(link) = $1 AND NOT (\(pk) = ANY($2))", binds)
                _ = try run("UPDATE \(table) SET \(link) = $1 WHERE \(pk) = ANY($2) AND \(link) IS DISTINCT FROM $1", binds)
            }
        }
    }

    private mutating func delete(_ snapshots: [DefaultSnapshot]) throws {
        var keys: [String: [Int64]] = [:]
        for snapshot in snapshots {
            guard let key = store.key(of: snapshot.persistentIdentifier) else { continue }
            keys[snapshot.persistentIdentifier.entityName, default: []].append(key)
        }
        for (entityName, doomed) in keys.sorted(by: { $0.key < $1.key }) {
            let layout = try store.layout(entityName)
            var binds = PostgresBindings()
            binds.append(doomed)
            let rows = try run("DELETE FROM \(layout.table) WHERE \(PostgresSQL.quote(PostgresSQL.primaryKey)) = ANY($1) RETURNING \(layout.deletionReturning)", binds)
            tombstones += try PostgresHistoryWriter.Tombstone.all(deleted: rows, layout: layout)
        }
    }
}
