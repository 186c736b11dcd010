import Foundation
import OpenSwiftDataCore
import PostgresNIO

extension PostgresStore {
    /// Inserts, updates and deletes the request's snapshots in one transaction, giving inserted
    /// models permanent identifiers; a conflicting concurrent save makes it try again, up to
    /// ``saveAttempts`` times in all.
    ///
    /// - Throws: ``PostgresStoreError`` `.constraintViolation` when an update would make two
    ///   models equal on a uniqueness constraint, `.saveConflict` after the last attempt; either
    ///   way nothing of the save is stored.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        for snapshot in [request.inserted, request.updated].joined() {
            if let problem = StorableValues.problem(in: snapshot) { throw PersistenceError(.invalidSnapshot, "\(problem). Nothing was saved.") }
        }
        let (remap, transaction) = try retryingConflicts { connection in
            var save = PostgresSave(store: self, connection: connection)
            try save.run(request)
            return (save.remap, save.historyTransaction)
        }
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remap, historyToken: historyToken(transaction))
    }

    func historyToken(_ transaction: Int64) -> DefaultHistoryToken {
        DefaultHistoryToken(storeIdentifier: identifier, transactionIdentifier: transaction)
    }

    /// Runs `body` in a transaction, again on a serialization failure or deadlock.
    func retryingConflicts<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try Self.retryingConflicts(pool, body)
    }

    /// Runs `body` in a transaction on one of `pool`'s connections, again on a serialization
    /// failure or deadlock, up to ``saveAttempts`` times in all.
    static func retryingConflicts<Result>(_ pool: PostgresConnectionPool, _ body: (PostgresConnection) throws -> Result) throws -> Result {
        var attempt = 1
        while true {
            do {
                return try pool.withConnection { connection in
                    try transaction(pool, connection) { try body(connection) }
                }
            } catch let error as PostgresStoreError where error.code == .saveConflict {
                guard attempt < Self.saveAttempts else {
                    throw PostgresStoreError(.saveConflict, "The save conflicted with concurrent saves \(Self.saveAttempts) times (\(error.message)); nothing was saved. Try again later.", sqlState: error.sqlState)
                }
                attempt += 1
                // Back off a little, differently per attempt, so the conflicting saves spread out.
                Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.005) * Double(attempt))
            }
        }
    }
}

/// Saves applied once per idempotency key, with the receipt written in the save's transaction.
extension PostgresStore: SaveReceiptRecording {
    /// Saves the request and records its response under the key, or returns the recorded response
    /// of an earlier save with that key and fingerprint without saving again.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, receiptKey key: String, fingerprint: String,
                     response: (DataStoreSaveChangesResult<DefaultSnapshot>) throws -> Data) throws -> SaveReceipt {
        for snapshot in [request.inserted, request.updated].joined() {
            if let problem = StorableValues.problem(in: snapshot) { throw PersistenceError(.invalidSnapshot, "\(problem). Nothing was saved.") }
        }
        let table = PostgresSQL.quote(PostgresSQL.receiptsTable)
        return try retryingConflicts { connection in
            var binds = PostgresBindings()
            binds.append(key)
            // One save per key at a time: a second arrival waits here, then sees the receipt.
            _ = try pool.run("SELECT pg_advisory_xact_lock(hashtext($1))", binds, on: connection)
            if let row = try pool.run("SELECT fingerprint, response FROM \(table) WHERE key = $1", binds, on: connection).first {
                let cells = PostgresRandomAccessRow(row)
                guard try cells[0].decode(String.self) == fingerprint else {
                    throw PersistenceError(.idempotencyKeyReused, "The idempotency key \(key) was used before for a different save; send each new save with a new key.")
                }
                return SaveReceipt(response: Data(buffer: try cells[1].decode(ByteBuffer.self)), isReplay: true)
            }
            var save = PostgresSave(store: self, connection: connection)
            try save.run(request)
            let answer = try response(DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: save.remap, historyToken: historyToken(save.historyTransaction)))
            binds.append(fingerprint)
            binds.append(ByteBuffer(bytes: answer))
            _ = try pool.run("INSERT INTO \(table) (key, fingerprint, response) VALUES ($1, $2, $3)", binds, on: connection)
            return SaveReceipt(response: answer, isReplay: false)
        }
    }
}
