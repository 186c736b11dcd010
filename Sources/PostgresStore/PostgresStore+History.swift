import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// History is kept in the database (`PostgresHistory`), written in each save's own transaction.
/// The conditions of a descriptor's predicate among its top-level `&&` terms that `HistoryFilter`
/// reads (token and transaction-number comparisons, author, changed entities) run in SQL, and so
/// do the order and limit when nothing is left for Swift; the rest runs in Swift on the
/// transactions SQL selected.
extension PostgresStore: HistoryProviding {
    /// The store keeps its history as `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction

    /// The type of the store's history transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions `descriptor` selects, oldest first unless it sorts them otherwise.
    ///
    /// - Throws: `SwiftDataError.historyTokenExpired` for a token from before deleted history,
    ///   `PersistenceError` `.foreignHistoryToken` for another store's token.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        let filter = HistoryFilter(descriptor.predicate)
        let query = HistoryRecordQuery(descriptor, filter: filter)
        let records = try historyRecords(query)
        // `finish` takes them oldest first.
        let ascending = query.newestFirst ? records.reversed() : records
        return try descriptor.evaluated(try ascending.map { try $0.transaction(storeIdentifier: identifier) }, filter: filter)
    }

    /// Deletes the transactions `descriptor` selects, with their changes; tokens below the
    /// highest deleted number expire.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        let filter = HistoryFilter(descriptor.predicate)
        try retryingConflicts { connection in
            let records = try historyRecords(HistoryRecordQuery(descriptor, filter: filter), on: connection)
            // Typed transactions only when Swift has a part to play: deleting needs no model types.
            let numbers = descriptor.limitsInStore(filter) ? records.map(\.transactionIdentifier)
                : try descriptor.evaluated(try records.map { try $0.transaction(storeIdentifier: identifier) }, filter: filter).map(\.transactionIdentifier)
            try PostgresHistory.delete(numbers, pool, connection)
        }
    }

    /// The transactions SQL selects for the query, in its order, with their changes.
    func historyRecords(_ query: HistoryRecordQuery, on connection: PostgresConnection) throws -> [HistoryRecord] {
        try query.filter.checkTokens(storeIdentifier: identifier, deletedThrough: try PostgresHistory.deletedThrough(pool, connection))
        var binds = PostgresBindings()
        let conditions = query.filter.conditions.map { Self.sql($0, binds: &binds) }
        var sql = "SELECT \"Z_PK\", \"timestamp\", \"author\", \"bundle\", \"process\" FROM \(PostgresHistory.transactions) AS t"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += query.newestFirst ? " ORDER BY \"Z_PK\" DESC" : " ORDER BY \"Z_PK\""
        if let limit = query.limit {
            binds.append(Int64(limit))
            sql += " LIMIT $\(binds.count)"
        }
        var records = try pool.run(sql, binds, on: connection).map { row in
            let cells = PostgresRandomAccessRow(row)
            return HistoryRecord(transactionIdentifier: try cells[0].decode(Int64.self), timestamp: Date(timeIntervalSinceReferenceDate: try cells[1].decode(Double.self)),
                                 author: try cells[2].decode(String?.self), bundleIdentifier: try cells[3].decode(String.self),
                                 processIdentifier: try cells[4].decode(String.self), changes: [])
        }
        try attachChanges(to: &records, on: connection)
        return records
    }

    private static func sql(_ condition: HistoryFilter.Condition, binds: inout PostgresBindings) -> String {
        switch condition {
        case .transaction(let comparison, let number):
            binds.append(number)
            return "t.\"Z_PK\" \(comparison.sqlOperator) $\(binds.count)"
        case .author(let equal, let author):
            binds.append(author)
            return "t.\"author\" IS \(equal ? "NOT " : "")DISTINCT FROM $\(binds.count)::text"
        case .changedEntity(let names):
            binds.append(names.sorted())
            return "EXISTS (SELECT 1 FROM \(PostgresHistory.changes) AS c WHERE c.\"transactionNumber\" = t.\"Z_PK\" AND c.\"entity\" = ANY($\(binds.count)))"
        }
    }

    /// Reads the changes (and the tombstones of deletes) of `records`.
    private func attachChanges(to records: inout [HistoryRecord], on connection: PostgresConnection) throws {
        guard !records.isEmpty else { return }
        var numbers = PostgresBindings()
        numbers.append(records.map(\.transactionIdentifier))
        let preserved = try tombstoneValues(numbers, on: connection)
        var positions: [Int64: Int] = [:]
        for (index, record) in records.enumerated() { positions[record.transactionIdentifier] = index }
        let sql = "SELECT \"Z_PK\", \"transactionNumber\", \"kind\", \"entity\", \"key\", \"attributes\" FROM \(PostgresHistory.changes) WHERE \"transactionNumber\" = ANY($1) ORDER BY \"Z_PK\""
        for row in try pool.run(sql, numbers, on: connection) {
            let cells = PostgresRandomAccessRow(row)
            let number = try cells[0].decode(Int64.self)
            guard let position = positions[try cells[1].decode(Int64.self)] else { continue }
            let kind: HistoryRecord.Kind
            switch PostgresHistory.Kind(rawValue: try cells[2].decode(Int16.self)) {
            case .insert?: kind = .insert
            case .update?: kind = .update(try cells[5].decode(String.self).split(separator: ",").map(String.init))
            case .delete?: kind = .delete(HistoryValues(preserved[number] ?? [:]))
            case nil: throw PostgresStoreError(.invalidValue, "History change \(number) has an unknown kind; delete the history that holds it (deleteHistory).")
            }
            let identifier = self.identifier(try cells[3].decode(String.self), try cells[4].decode(Int64.self))
            records[position].changes.append(HistoryRecord.Change(changeIdentifier: number, identifier: identifier, kind: kind))
        }
    }

    /// The tombstones' values by change number and property, each read back through its column's
    /// type; properties the models no longer have are left out.
    private func tombstoneValues(_ numbers: PostgresBindings, on connection: PostgresConnection) throws -> [Int64: [String: Any]] {
        let join = "FROM \(PostgresHistory.tombstones) AS s JOIN \(PostgresHistory.changes) AS c ON c.\"Z_PK\" = s.\"change\" WHERE c.\"transactionNumber\" = ANY($1)"
        var values: [Int64: [String: Any]] = [:]
        for row in try pool.run("SELECT DISTINCT c.\"entity\", s.\"property\" \(join)", numbers, on: connection) {
            let cells = PostgresRandomAccessRow(row)
            let (entityName, name) = (try cells[0].decode(String.self), try cells[1].decode(String.self))
            guard let layout = layouts[entityName], let column = layout.column(named: name), column.hasColumn, column.storage != .toOne else { continue }
            var binds = numbers
            binds.append(entityName)
            binds.append(name)
            for row in try pool.run("SELECT s.\"change\", s.\"value\"::\(column.sqlType) \(join) AND c.\"entity\" = $2 AND s.\"property\" = $3", binds, on: connection) {
                let cells = PostgresRandomAccessRow(row)
                do {
                    values[try cells[0].decode(Int64.self), default: [:]][name] = try PostgresValueCoding.value(cells[1], storage: column.storage, as: column.property.valueType)
                } catch {
                    throw PostgresStoreError(.invalidValue, "The history tombstone value of \(entityName).\(name) cannot be read as \(column.property.valueType) (\(error)); delete the history that holds it (deleteHistory).")
                }
            }
        }
        return values
    }
}

/// The server reads and deletes the history by name (`StoreServer` serving `RemoteStore`).
extension PostgresStore: HistoryRecordReading {
    package var historyStoreIdentifier: String { identifier }

    package func historyRecords(_ query: HistoryRecordQuery) throws -> [HistoryRecord] {
        try pool.withConnection { connection in
            // One snapshot for the transactions, their changes and tombstones; inside a
            // migration's transaction, that transaction's.
            guard !pool.isInsideTransaction else { return try historyRecords(query, on: connection) }
            _ = try pool.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            let records = try historyRecords(query, on: connection)
            _ = try pool.run("COMMIT", on: connection)
            return records
        }
    }

    package func deleteHistoryRecords(_ query: HistoryRecordQuery) throws {
        try retryingConflicts { connection in
            try PostgresHistory.delete(try historyRecords(query, on: connection).map(\.transactionIdentifier), pool, connection)
        }
    }

    package func latestHistoryTransaction() throws -> Int64? {
        try pool.withConnection { connection in
            try pool.run("SELECT max(\"Z_PK\") FROM \(PostgresHistory.transactions)", on: connection).first.flatMap { try PostgresRandomAccessRow($0)[0].decode(Int64?.self) }
        }
    }
}
