import Foundation
import GRDB
import GRDBSQLite
import OpenSwiftDataCore

extension DefaultStore {
    /// Writes one context save in one transaction: deletes, then updates, then inserts (each
    /// getting a new key, or the key of the row it equals on a uniqueness constraint), then the
    /// updates that refer to models inserted in this save. Returns temporary → permanent
    /// identifiers for every insert.
    public final func save(_ request: DataStoreSaveChangesRequest<DefaultStore.Snapshot>) throws -> DataStoreSaveChangesResult<DefaultStore.Snapshot> {
        let (keys, token) = try saveInOrder(request)
        return DataStoreSaveChangesResult(for: storeIdentifier, remappedIdentifiers: SQLiteSave.remap(request, keys: keys, store: self),
                                          historyToken: token)
    }

    /// The save, answering each insert's key in the request's order (``saveRows(_:)``, and
    /// ``save(_:)`` which makes the remapped identifiers of them), and the token of the history
    /// transaction it recorded (nil when the store keeps no history).
    final func saveInOrder(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> (keys: [Int64], token: DefaultHistoryToken?) {
        try requireWritable("save")
        return try write("Saving") { db in
            var save = SQLiteSave(store: self, db: db)
            let keys = try save.run(request)
            return (keys, save.historyToken)
        }
    }
}

/// The work of one save, inside its transaction.
struct SQLiteSave {
    let store: DefaultStore
    let db: Database
    private var remap: [PersistentIdentifier: PersistentIdentifier] = [:]
    private var deleted: Set<PersistentIdentifier> = []
    private var nanColumns: Set<String> = []
    private var signedZeroColumns: Set<String> = []
    private var unnormalizedTextColumns: Set<String> = []
    /// The updated rows of entities with a uniqueness constraint over text (``refuseCanonicalTwins()``).
    private var updatedUniqueText: [(SQLiteEntityLayout, Int64)] = []
    private var rowWrites: [String: RowWrites] = [:]
    private let insertKeys: SQLiteInsertKeys
    private var permanentScopes: StoreScopes
    /// The layout and row writes of the last entity written, by the scope of the snapshot's
    /// identifier, so that the next row of that entity does not look both up by entity name.
    private var lastWrite: (scope: IdentifierScope, layout: SQLiteEntityLayout, writes: RowWrites)?
    /// The changed columns and `UPDATE` of the last updated row (``updateStatement(_:layout:scope:)``).
    private var lastUpdate: (scope: IdentifierScope, changed: ChangedSlots, positions: [Int], statement: Statement?)?
    /// The scope of the last identifier ``ownKey(_:role:)`` found to be this store's.
    private var lastOwnScope: IdentifierScope?
    /// The number of the history transaction ``run(_:)`` recorded; nil when the store keeps none.
    private(set) var historyTransaction: Int64?

    init(store: DefaultStore, db: Database) {
        self.store = store
        self.db = db
        insertKeys = SQLiteInsertKeys(db: db)
        permanentScopes = StoreScopes(store)
    }

    /// The token of the history transaction ``run(_:)`` recorded, if it recorded one.
    var historyToken: DefaultHistoryToken? {
        historyTransaction.map { DefaultHistoryToken(storeIdentifier: store.storeIdentifier, transactionIdentifier: $0) }
    }

    /// The inserted snapshots' temporary → permanent identifiers, from ``run(_:)``'s answer.
    static func remap(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, keys: [Int64], store: DefaultStore) -> [PersistentIdentifier: PersistentIdentifier] {
        var remap: [PersistentIdentifier: PersistentIdentifier] = [:]
        var scopes = StoreScopes(store)
        for (snapshot, key) in zip(request.inserted, keys) where snapshot.persistentIdentifier.isTemporary {
            let identifier = snapshot.persistentIdentifier
            remap[identifier] = PersistentIdentifier(scope: scopes.own(for: identifier), primaryKey: .integer(key))
        }
        return remap
    }

    /// Runs the save; answers each insert's key, in the request's order (an insert that already
    /// had a permanent identifier keeps its key).
    mutating func run(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [Int64] {
        let history = store.configuration.keepsHistory ? try SQLiteHistoryWriter(store: store, db: db, request: request) : nil
        deleted = Set(request.deleted.map(\.persistentIdentifier))
        var keysByEntity: [String: [Int64]] = [:]
        for identifier in deleted {
            keysByEntity[identifier.entityName, default: []].append(try ownKey(identifier, role: "deleted model"))
        }
        try store.deleteRows(keysByEntity, db: db)

        // Only updates can refer to inserts; a save of inserts alone hashes none of them here.
        let temporaries = request.updated.isEmpty ? [] : Set(request.inserted.map(\.persistentIdentifier).filter(\.isTemporary))
        var deferred: [DefaultSnapshot] = []
        for snapshot in request.updated {
            if refersToAny(of: temporaries, snapshot) { deferred.append(snapshot); continue }
            try update(snapshot, key: try ownKey(snapshot.persistentIdentifier, role: "updated model"))
        }

        // Per insert, in the request's order: its key, whether no row has it yet, and its row when
        // `target` built it already. Not the snapshot itself: a copy of each would add to
        // the save's peak memory.
        var targets: [InsertTarget] = []
        targets.reserveCapacity(request.inserted.count)
        // References to inserts are resolved through `remap`; without relationships in the
        // schema nothing can refer to an insert, and the dictionary is not built.
        let resolvesReferences = !deferred.isEmpty || store.layouts.values.contains { $0.writes.refersToRows }
        for snapshot in request.inserted {
            let target = try target(of: snapshot)
            let identifier = snapshot.persistentIdentifier
            if resolvesReferences && identifier.isTemporary {
                remap[identifier] = PersistentIdentifier(scope: permanentScopes.own(for: identifier), primaryKey: .integer(target.key))
            }
            targets.append(target)
        }
        for (snapshot, target) in zip(request.inserted, targets) {
            try write(snapshot, key: target.key, row: target.row, isNewKey: target.isNewKey)
        }
        for snapshot in deferred { try update(snapshot, key: try ownKey(snapshot.persistentIdentifier, role: "updated model")) }
        try refuseCanonicalTwins()

        if !nanColumns.isEmpty { try SQLiteMetadata.flag(nanColumns, .nan, db) }
        if !signedZeroColumns.isEmpty { try SQLiteMetadata.flag(signedZeroColumns, .signedZero, db) }
        if !unnormalizedTextColumns.isEmpty { try SQLiteMetadata.flag(unnormalizedTextColumns, .unnormalizedText, db) }
        if let history {
            let transaction = try history.record(insertKeys: targets.map(\.key), newKeys: targets.map(\.isNewKey))
            try SQLiteHistory.applyRetention(store.configuration.historyRetention, after: transaction, db: db)
            historyTransaction = transaction
        }
        return targets.map(\.key)
    }

    // MARK: Keys

    /// The key of a model this store minted.
    /// `role` is built only for the error, not interpolated for every reference.
    private mutating func ownKey(_ identifier: PersistentIdentifier, role: @autoclosure () -> String) throws -> Int64 {
        guard case .integer(let key) = identifier.primaryKey else { throw foreignIdentifier(identifier, role: role()) }
        // Identifiers of one entity and store share their scope: it is checked once per run of
        // them, where looking the entity up by name hashed it for every reference.
        if identifier.scope === lastOwnScope { return key }
        guard identifier.storeIdentifier == store.storeIdentifier, store.layouts[identifier.entityName] != nil else {
            throw foreignIdentifier(identifier, role: role())
        }
        lastOwnScope = identifier.scope
        return key
    }

    private func foreignIdentifier(_ identifier: PersistentIdentifier, role: String) -> SQLiteStoreError {
        SQLiteStoreError(.invalidReference, "A \(role) of entity \(identifier.entityName) has an identifier of another store; save each model through the container whose store holds it.", path: store.path)
    }

    /// Where an insert is written: its key; whether no row has that key (the save minted it and
    /// no earlier insert of the save took it), so a plain `INSERT` writes it; and the row's values
    /// when the constraints needed them and they are final (no relationship keys, which refer to
    /// inserts not keyed yet), so that no row is built twice.
    private struct InsertTarget {
        let key: Int64
        let isNewKey: Bool
        let row: [DatabaseValue]?
    }

    /// The key an inserted snapshot is written to: the row it equals on a uniqueness constraint
    /// (inserted earlier in this save, or stored), else a new key. An insert that already has a
    /// permanent identifier may have a row, and is upserted.
    private mutating func target(of snapshot: DefaultSnapshot) throws -> InsertTarget {
        let identifier = snapshot.persistentIdentifier
        guard identifier.isTemporary else { return InsertTarget(key: try ownKey(identifier, role: "inserted model"), isNewKey: false, row: nil) }
        let layout = try writeTarget(identifier).0
        guard !layout.writes.uniqueConstraints.isEmpty else { return InsertTarget(key: try insertKeys.newKey(layout), isNewKey: true, row: nil) }
        // Inserts may refer to inserts not keyed yet; such a reference reads as nil here.
        let row = try rowValues(of: snapshot, layout: layout, resolvingInserts: false)
        let (key, isNew) = try insertKeys.key(matching: row, layout)
        return InsertTarget(key: key, isNewKey: isNew, row: layout.writes.hasReferences ? nil : row)
    }

    // MARK: Rows

    /// Writes a row whole: inserted when `isNewKey`, else upserted (it may exist).
    private mutating func write(_ snapshot: DefaultSnapshot, key: Int64, row: [DatabaseValue]? = nil, isNewKey: Bool = false) throws {
        let (layout, writes) = try writeTarget(snapshot.persistentIdentifier)
        let arguments = try row.map { [key.databaseValue] + $0 } ?? rowValues(of: snapshot, layout: layout, key: key)
        try execute(isNewKey ? writes.insert : writes.upsert, arguments, layout: layout)
        try writeJoinTables(of: snapshot, key: key, layout: layout)
    }

    /// Runs a row's write; a uniqueness violation says which entity and what to do.
    private func execute(_ statement: Statement, _ arguments: [DatabaseValue], layout: SQLiteEntityLayout) throws {
        do {
            try statement.executeBound(arguments)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw SQLiteStoreError(.uniqueConstraintViolation, "A saved \(layout.entityName) would equal another on a uniqueness constraint that it was not inserted under (an update, or a second constraint). Change one of them, or delete the duplicate before saving.", path: store.path, underlying: error)
        }
    }

    /// SQLite's unique indexes compare bytes: an update spelling a unique text value as another
    /// model's canonical equivalent (`"e\u{301}"` where it holds `"\u{e9}"`) passes them, though
    /// Swift finds the two equal and every other store refuses the save. Where a constraint's text
    /// column has held text not in NFC (the only way two stored spellings can differ), each updated
    /// row is looked up for such a twin.
    private mutating func refuseCanonicalTwins() throws {
        guard !updatedUniqueText.isEmpty else { return }
        let flagged = try SQLiteMetadata.unnormalizedTextColumns(db).union(unnormalizedTextColumns)
        for (layout, key) in updatedUniqueText {
            for constraint in layout.writes.uniqueConstraints where !constraint.textColumns.isDisjoint(with: flagged) {
                let statement = try db.cachedStatement(sql: constraint.twinLookup)
                var twin = false
                try statement.forEachRowBound([key.databaseValue]) { _ in twin = true }
                if twin {
                    throw SQLiteStoreError(.uniqueConstraintViolation, "A saved \(layout.entityName) would equal another on a uniqueness constraint (its text equals the other's in Swift, spelled with other Unicode scalars). Change one of them, or delete the duplicate before saving.", path: store.path)
                }
            }
        }
    }

    /// The row's pairs in each join table of its entity.
    private mutating func writeJoinTables(of snapshot: DefaultSnapshot, key: Int64, layout: SQLiteEntityLayout) throws {
        for index in layout.writes.joinTableColumnIndexes {
            let column = layout.table.columns[index]
            try writePairs(of: snapshot, column: column, property: layout.properties[index], joinTable: column.joinTable!, key: key, layout: layout)
        }
    }

    /// Writes an updated model: only the columns of the slots it changed (``DefaultSnapshot/changedSlots``),
    /// when known. The upsert rewrote every column, and so maintained each index and checked each
    /// foreign key of the row again, where an update usually changes one or two columns. A row
    /// another connection deleted meanwhile is written whole, as the upsert did.
    private mutating func update(_ snapshot: DefaultSnapshot, key: Int64) throws {
        let layout = try writeTarget(snapshot.persistentIdentifier).0
        if layout.writes.uniqueConstraints.contains(where: { !$0.textColumns.isEmpty }) { updatedUniqueText.append((layout, key)) }
        guard let changed = snapshot.changedSlots, changed.isKnown else { return try write(snapshot, key: key) }
        let (positions, statement) = try updateStatement(changed, layout: layout, scope: snapshot.persistentIdentifier.scope)
        if let statement {
            // Only the changed columns' values are built; the key goes last, for the `WHERE`.
            var arguments = try rowValues(of: snapshot, layout: layout, positions: positions)
            arguments.append(key.databaseValue)
            try execute(statement, arguments, layout: layout)
            // SQLite's own count: GRDB's first checks that it runs on its queue.
            if sqlite3_changes(db.sqliteConnection) == 0 { return try write(snapshot, key: key) }
        }
        try writeJoinTables(of: snapshot, key: key, layout: layout)
    }

    /// The row positions of the changed columns and their `UPDATE` (nil when no column changed),
    /// kept for the next row: the updates of a save mostly change the same properties, and
    /// building the SQL and finding its statement per row cost more than the narrower write saved.
    private mutating func updateStatement(_ changed: ChangedSlots, layout: SQLiteEntityLayout,
                                          scope: IdentifierScope) throws -> ([Int], Statement?) {
        if let lastUpdate, lastUpdate.scope === scope, lastUpdate.changed == changed {
            return (lastUpdate.positions, lastUpdate.statement)
        }
        let writes = layout.writes
        let positions = writes.columnSlots.indices.filter { changed.contains(writes.columnSlots[$0]) }
        let statement = positions.isEmpty ? nil : try db.cachedStatement(sql: writes.update(positions))
        lastUpdate = (scope, changed, positions, statement)
        return (positions, statement)
    }

    private mutating func writeTarget(_ identifier: PersistentIdentifier) throws -> (SQLiteEntityLayout, RowWrites) {
        if let lastWrite, lastWrite.scope === identifier.scope { return (lastWrite.layout, lastWrite.writes) }
        let layout = try store.layout(forEntity: identifier.entityName)
        let writes = try rowWrites(layout)
        lastWrite = (identifier.scope, layout, writes)
        return (layout, writes)
    }

    /// An entity's statements writing a whole row (``SQLiteEntityWrites/upsert`` and
    /// ``SQLiteEntityWrites/insert``).
    private struct RowWrites {
        let upsert: Statement
        let insert: Statement
    }

    /// The entity's row writes, looked up in the connection's cache once per save rather than per row.
    private mutating func rowWrites(_ layout: SQLiteEntityLayout) throws -> RowWrites {
        if let writes = rowWrites[layout.entityName] { return writes }
        let writes = RowWrites(upsert: try db.cachedStatement(sql: layout.writes.upsert), insert: try db.cachedStatement(sql: layout.writes.insert))
        rowWrites[layout.entityName] = writes
        return writes
    }

    /// Replaces the row's pairs in a join table with the snapshot's. Either side may be saved
    /// alone; when both are, the context has kept them equal, so the result is the same.
    private mutating func writePairs(of snapshot: DefaultSnapshot, column: SQLiteColumn, property: ModelTypeInfo.Property, joinTable: SQLiteJoinTable,
                            key: Int64, layout: SQLiteEntityLayout) throws {
        // A snapshot without the property says nothing about it; an empty list clears it.
        guard let stored = snapshot.values.value(of: property, in: layout.info) else { return }
        let table = SQL.quote(joinTable.name)
        let mine = SQL.quote(joinTable.selfColumn)
        let theirs = SQL.quote(joinTable.relatedColumn)
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(mine) = ?").execute(arguments: [key])
        let related = heldIdentifiers(stored.value) ?? []
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table) (\(mine), \(theirs)) VALUES (?, ?)")
        for identifier in related {
            guard let relatedKey = try reference(identifier, from: "\(layout.entityName).\(column.property)", resolvingInserts: true) else { continue }
            try insert.execute(arguments: [key, relatedKey])
        }
    }

    /// The snapshot's values as stored, in the order of ``SQLiteEntityWrites/columnIndexes``, after
    /// `key` when one is given (the upsert's arguments); only those at `positions`, in that order,
    /// when given (a narrow update's), with room for one more.
    private mutating func rowValues(of snapshot: DefaultSnapshot, layout: SQLiteEntityLayout, key: Int64? = nil,
                                    positions: [Int]? = nil, resolvingInserts: Bool = true) throws -> [DatabaseValue] {
        let writes = layout.writes
        var row: [DatabaseValue] = []
        row.reserveCapacity((positions?.count ?? writes.columnIndexes.count) + 1)
        if let key { row.append(key.databaseValue) }
        // The snapshot's own slots when it is in the entity's slot order, as the context hands
        // snapshots over: read by index, with no lookup per value.
        let slots = snapshot.values.slots(for: layout.info)
        for step in 0..<(positions?.count ?? writes.columnIndexes.count) {
            let position = positions?[step] ?? step
            let index = writes.columnIndexes[position]
            let raw: Any?
            if let slots {
                raw = slots[writes.columnSlots[position]]
            } else {
                raw = snapshot.values.value(of: layout.properties[index], in: layout.info)?.value
            }
            // Built only when needed: interpolating it for every value was a measurable share of a save.
            var name: String { "\(layout.entityName).\(layout.table.columns[index].property)" }
            let storage = writes.columnStorages[position]
            switch storage {
            case .toOne:
                let related = raw.flatMap(heldIdentifier)
                let key = try related.flatMap { try reference($0, from: name, resolvingInserts: resolvingInserts) }
                row.append(key?.databaseValue ?? .null)
            case .toManyByInverse, .toManyByJoinTable:
                continue
            default:
                guard let value = raw ?? layout.properties[index].defaultValue else {
                    throw SQLiteStoreError(.invalidValue, "The \(layout.entityName) snapshot has no value for \(layout.table.columns[index].property), which is not optional and has no default value.", path: store.path)
                }
                let stored: DatabaseValue
                do {
                    stored = try SQLiteValueCoding.databaseValue(value)
                } catch let error as UnstorableValueError {
                    throw SQLiteStoreError(.invalidValue, "\(name): \(error.message). Nothing was saved.", path: store.path, underlying: error)
                } catch {
                    throw SQLiteStoreError(.invalidValue, "\(name) cannot be stored: \(error). Make the property's type Codable.", path: store.path, underlying: error)
                }
                switch Self.comparesUnlikeSwift(stored, storage) {
                case .nan?: nanColumns.insert(name)
                case .signedZero?: signedZeroColumns.insert(name)
                case .unnormalizedText?, nil: break
                }
                // Kept as given; queries compare the column's text in NFC from now on.
                if storage == .text || storage == .json, case .string(let text) = stored.storage, !text.isNFC {
                    unnormalizedTextColumns.insert("\(layout.table.name).\(layout.table.columns[index].property)")
                }
                row.append(stored)
            }
        }
        return row
    }

    /// Which flag a stored value sets on its column, if any: NaN (stored as TEXT) and non-finite
    /// numbers inside JSON, which SQL does not compare as Swift does, so queries on the column run
    /// in memory from then on; `-0.0` (stored as TEXT too), which queries compare as the REAL it
    /// casts to, `0.0`, as Swift's `==` and `<` have it.
    private static func comparesUnlikeSwift(_ value: DatabaseValue, _ storage: SQLiteColumn.Storage) -> SQLiteMetadata.ColumnFlag? {
        guard case .string(let text) = value.storage else { return nil }
        switch storage {
        case .real: return SQLiteValueCoding.isNegativeZeroText(text) ? .signedZero : .nan
        case .json: return text.contains("\"NaN\"") || text.contains("Infinity\"") ? .nan : nil
        default: return nil
        }
    }

    /// The key a relationship stores for a related model: its permanent key, after remapping;
    /// nil for a model deleted in this save.
    private mutating func reference(_ identifier: PersistentIdentifier, from property: @autoclosure () -> String, resolvingInserts: Bool) throws -> Int64? {
        let resolved = identifier.isTemporary ? remap[identifier] ?? identifier : identifier
        if !deleted.isEmpty, deleted.contains(resolved) { return nil }
        guard !resolved.isTemporary else {
            if !resolvingInserts { return nil }
            throw SQLiteStoreError(.invalidReference, "\(property()) refers to a \(resolved.entityName) that is neither stored nor inserted in this save of the store. Insert the related model into the same context, and keep related models in one configuration.", path: store.path)
        }
        return try ownKey(resolved, role: "related model (\(property()))")
    }

    private func refersToAny(of temporaries: Set<PersistentIdentifier>, _ snapshot: DefaultSnapshot) -> Bool {
        guard !temporaries.isEmpty else { return false }
        return snapshot.values.values.contains { value in
            guard let present = unwrapOptional(value.value) else { return false }
            if let identifier = present as? PersistentIdentifier { return temporaries.contains(identifier) }
            if let identifiers = present as? [PersistentIdentifier] { return identifiers.contains(where: temporaries.contains) }
            return false
        }
    }
}
