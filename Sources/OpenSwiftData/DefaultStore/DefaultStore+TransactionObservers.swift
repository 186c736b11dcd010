import GRDB

extension DefaultStore {
    /// Adds a GRDB transaction observer to the store's connection. It is told of every row the
    /// store's saves and deletes change, and of each commit and rollback, as GRDB tells observers
    /// of its own writes: the hook for features that follow what a store commits.
    ///
    /// While an observer watches, the store's statements run through GRDB's bookkeeping, which
    /// costs more per statement than stepping them through SQLite's C API.
    package func add(transactionObserver: some TransactionObserver,
                     extent: Database.TransactionObservationExtent = .observerLifetime) {
        database.inDatabase { db in
            db.add(transactionObserver: transactionObserver, extent: extent)
            guard let connection = db.sqliteConnection else { return }
            observedConnection.withLock { $0 = UInt(bitPattern: connection) }
            ObservedConnections.insert(connection)
        }
    }
}
