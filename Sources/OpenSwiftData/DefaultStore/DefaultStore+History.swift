import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// History is kept in the store file (`SQLiteHistory`), written in each save's own transaction.
/// The conditions of a descriptor's predicate among its top-level `&&` terms that `HistoryFilter`
/// reads (token and transaction-number comparisons, author, changed entities) run in SQL, and so
/// does the limit when nothing is left for Swift; the rest of the predicate and other sorts run
/// in Swift on the transactions SQL selected.
extension DefaultStore: HistoryProviding {
    /// The store keeps its history as ``DefaultHistoryTransaction``s.
    public typealias HistoryType = DefaultHistoryTransaction
    /// The store marks its history with ``DefaultHistoryToken``s.
    public typealias TokenType = DefaultHistoryToken

    /// The type of the store's history transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions `descriptor` selects. Throws `PersistenceError` `.unavailable` for a store
    /// opened with ``ModelConfiguration/keepsHistory`` off.
    public final func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        try requireHistory()
        let filter = HistoryFilter(descriptor.predicate)
        let query = HistoryRecordQuery(descriptor, filter: filter)
        let records = try read("Fetching history") { db in try historyRecords(query, db: db) }
        // `finish` takes them oldest first.
        let ascending = query.newestFirst ? records.reversed() : records
        return try descriptor.evaluated(try ascending.map { try $0.transaction(storeIdentifier: storeIdentifier) }, filter: filter)
    }

    /// Deletes the selected transactions with their changes; tokens below the highest deleted
    /// number expire.
    public final func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        try requireHistory()
        try requireWritable("delete history")
        let filter = HistoryFilter(descriptor.predicate)
        try write("Deleting history") { db in
            let records = try historyRecords(HistoryRecordQuery(descriptor, filter: filter), db: db)
            // Typed transactions only when Swift has a part to play: deleting needs no model types.
            let numbers = descriptor.limitsInStore(filter) ? records.map(\.transactionIdentifier)
                : try descriptor.evaluated(try records.map { try $0.transaction(storeIdentifier: storeIdentifier) }, filter: filter).map(\.transactionIdentifier)
            try deleteHistory(numbers, db: db)
        }
    }

    /// Refuses to read or change the history of a store that keeps none: what it would find is
    /// older than the configuration, or written by another process.
    private func requireHistory() throws {
        guard configuration.keepsHistory else {
            throw PersistenceError(.unavailable, "The store '\(configuration.name)' keeps no history; open it with a ModelConfiguration whose keepsHistory is true.",
                                   underlying: DataStoreError.unsupportedFeature)
        }
    }

    /// Deletes the transactions of these numbers with their changes, and moves the expiry mark.
    private func deleteHistory(_ numbers: [Int64], db: Database) throws {
        guard let highest = numbers.max() else { return }
        let list = "[\(numbers.map(String.init).joined(separator: ","))]"
        try db.execute(sql: "DELETE FROM \(SQLiteHistory.tombstones) WHERE \"change\" IN (SELECT \"Z_PK\" FROM \(SQLiteHistory.changes) WHERE \"transactionNumber\" IN (SELECT value FROM json_each(?)))", arguments: [list])
        try db.execute(sql: "DELETE FROM \(SQLiteHistory.changes) WHERE \"transactionNumber\" IN (SELECT value FROM json_each(?))", arguments: [list])
        try db.execute(sql: "DELETE FROM \(SQLiteHistory.transactions) WHERE \"Z_PK\" IN (SELECT value FROM json_each(?))", arguments: [list])
        try SQLiteHistory.setDeletedThrough(max(highest, try SQLiteHistory.deletedThrough(db)), db)
    }

    /// The transactions SQL selects for the query, in its order, with their changes.
    private func historyRecords(_ query: HistoryRecordQuery, db: Database) throws -> [HistoryRecord] {
        let filter = query.filter
        guard try db.tableExists("osd_history_transactions") else {
            // A read-only store on a file written before the store kept history.
            try filter.checkTokens(storeIdentifier: storeIdentifier, deletedThrough: 0)
            return []
        }
        try filter.checkTokens(storeIdentifier: storeIdentifier, deletedThrough: try SQLiteHistory.deletedThrough(db))
        var sql = "SELECT \"Z_PK\", \"timestamp\", \"author\", \"bundle\", \"process\" FROM \(SQLiteHistory.transactions) AS t"
        var arguments: [DatabaseValue] = []
        let conditions = filter.conditions.map { condition -> String in
            let (text, values) = Self.sql(condition)
            arguments += values
            return text
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += query.newestFirst ? " ORDER BY \"Z_PK\" DESC" : " ORDER BY \"Z_PK\""
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(limit.databaseValue)
        }
        var records = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
            HistoryRecord(transactionIdentifier: row[0], timestamp: Date(timeIntervalSinceReferenceDate: row[1]), author: row[2],
                          bundleIdentifier: row[3], processIdentifier: row[4], changes: [])
        }
        try attachChanges(to: &records, db: db)
        return records
    }

    private static func sql(_ condition: HistoryFilter.Condition) -> (String, [DatabaseValue]) {
        switch condition {
        case .transaction(let comparison, let number):
            return ("t.\"Z_PK\" \(comparison.sqlOperator) ?", [number.databaseValue])
        case .author(let equal, let author):
            return ("t.\"author\" \(equal ? "IS" : "IS NOT") ?", [author.map(\.databaseValue) ?? .null])
        case .changedEntity(let names):
            let list = try? SQLiteValueCoding.json(names.sorted())
            return ("EXISTS (SELECT 1 FROM \(SQLiteHistory.changes) AS c WHERE c.\"transactionNumber\" = t.\"Z_PK\" AND c.\"entity\" IN (SELECT value FROM json_each(?)))",
                    [(list ?? "[]").databaseValue])
        }
    }

    /// Reads the changes (and the tombstones of deletes) of `records`.
    private func attachChanges(to records: inout [HistoryRecord], db: Database) throws {
        guard !records.isEmpty else { return }
        let list = "[\(records.map { String($0.transactionIdentifier) }.joined(separator: ","))]"
        var preserved: [Int64: [String: Any]] = [:]
        let tombstoneSQL = """
            SELECT s."change", s."property", s."value", c."entity" FROM \(SQLiteHistory.tombstones) AS s \
            JOIN \(SQLiteHistory.changes) AS c ON c."Z_PK" = s."change" WHERE c."transactionNumber" IN (SELECT value FROM json_each(?))
            """
        for row in try Row.fetchAll(db, sql: tombstoneSQL, arguments: [list]) {
            let entityName: String = row[3]
            let name: String = row[1]
            // A property the model no longer has is left out of the tombstone.
            guard let property = layouts[entityName]?.info.property(named: name) else { continue }
            do {
                preserved[row[0], default: [:]][name] = try SQLiteValueCoding.value(row[2], as: property.valueType)
            } catch {
                throw SQLiteStoreError(.corrupt, "The history tombstone value of \(entityName).\(name) cannot be read as \(property.valueType): \(error). Delete the history that holds it (deleteHistory).", path: path, underlying: error)
            }
        }
        var positions: [Int64: Int] = [:]
        for (index, record) in records.enumerated() { positions[record.transactionIdentifier] = index }
        // A read-only store may hold a file written before changes were kept as runs or lists.
        let columns = Set(try db.columns(in: "osd_history_changes").map(\.name))
        let optional = ["lastKey", "keys", "numbers"].map { columns.contains($0) ? SQL.quote($0) : "NULL" }.joined(separator: ", ")
        let changeSQL = "SELECT \"Z_PK\", \"transactionNumber\", \"kind\", \"entity\", \"key\", \"attributes\", \(optional) FROM \(SQLiteHistory.changes) WHERE \"transactionNumber\" IN (SELECT value FROM json_each(?)) ORDER BY \"Z_PK\""
        // Records holding a row whose changes other rows' changes come between, put in order at the end.
        var interleaved: Set<Int> = []
        for row in try Row.fetchAll(db, sql: changeSQL, arguments: [list]) {
            let number: Int64 = row[0]
            guard let position = positions[row[1]] else { continue }
            let entityName: String = row[3]
            let key: Int64 = row[4]
            let kind: HistoryRecord.Kind
            switch SQLiteHistory.Kind(rawValue: row[2]) {
            case .insert?: kind = .insert
            case .update?: kind = .update((row[5] as String?).map { $0.split(separator: ",").map(String.init) } ?? [])
            case .delete?: kind = .delete(HistoryValues(preserved[number] ?? [:]))
            case nil: throw SQLiteStoreError(.corrupt, "History change \(number) has an unknown kind; delete the history that holds it (deleteHistory).", path: path)
            }
            // Changes of one kind to the row's keys, numbered up to this row's own number.
            let keys: [Int64]
            if let text = row[7] as String? {
                guard let listed = SQLiteHistory.keys(in: text, atMost: number) else {
                    throw SQLiteStoreError(.corrupt, "History change \(number) lists its keys as '\(text.prefix(40))', which this store does not write; delete the history that holds it (deleteHistory).", path: path)
                }
                keys = listed
            } else {
                // A row numbered N holds at most N changes.
                let last = (row[6] as Int64?).map { max($0, key) } ?? key
                guard let count = SQLiteHistory.runLength(key, last), count <= number else {
                    throw SQLiteStoreError(.corrupt, "History change \(number) claims the keys \(key) through \(last), more changes than its number allows; delete the history that holds it (deleteHistory).", path: path)
                }
                keys = Array(key...last)
            }
            let numbers = try changeNumbers(row[8], count: keys.count, last: number)
            if numbers != nil { interleaved.insert(position) }
            let first = number - Int64(keys.count - 1)
            for (offset, key) in keys.enumerated() {
                let identifier = PersistentIdentifier(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: .integer(key))
                records[position].changes.append(HistoryRecord.Change(changeIdentifier: numbers?[offset] ?? first + Int64(offset), identifier: identifier, kind: kind))
            }
        }
        for position in interleaved { records[position].changes.sort { $0.changeIdentifier < $1.changeIdentifier } }
    }

    /// The numbers a row's `numbers` text lists for its `count` changes, the last being `last`
    /// (its `Z_PK`); nil when the text is absent and the changes are numbered consecutively.
    private func changeNumbers(_ text: String?, count: Int, last: Int64) throws -> [Int64]? {
        guard let text else { return nil }
        guard let numbers = SQLiteHistory.keys(in: text, atMost: last), numbers.count == count, numbers.last == last,
              numbers.first.map({ $0 > 0 }) == true, zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw SQLiteStoreError(.corrupt, "History change \(last) numbers its \(count) changes as '\(text.prefix(40))', which this store does not write; delete the history that holds it (deleteHistory).", path: path)
        }
        return numbers
    }
}

/// The server reads and deletes the history by name (``HistoryRecordReading``).
extension DefaultStore: HistoryRecordReading {
    package var historyStoreIdentifier: String { storeIdentifier }

    package func historyRecords(_ query: HistoryRecordQuery) throws -> [HistoryRecord] {
        try requireHistory()
        return try read("Fetching history") { db in try historyRecords(query, db: db) }
    }

    package func deleteHistoryRecords(_ query: HistoryRecordQuery) throws {
        try requireHistory()
        try requireWritable("delete history")
        try write("Deleting history") { db in try deleteHistory(try historyRecords(query, db: db).map(\.transactionIdentifier), db: db) }
    }

    package func latestHistoryTransaction() throws -> Int64? {
        guard configuration.keepsHistory else { return nil }
        return try read("Fetching history") { db in
            guard try db.tableExists("osd_history_transactions") else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT max(\"Z_PK\") FROM \(SQLiteHistory.transactions)")
        }
    }
}
