import GRDB
import OpenSwiftDataCore

extension DefaultStore {
    /// The `SELECT` a fetch of `descriptor` runs and its bound arguments, for tests that assert
    /// the SQL. Throws the `DataStoreError` the fetch would throw.
    package func selectStatementForTesting<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> (sql: String, arguments: [DatabaseValue]) {
        let layout = try layout(forEntity: Schema.entityName(for: T.self))
        let query = try translate(descriptor, sorted: true)
        let statement = try read("Rendering a fetch") { db in
            try selectStatement(query, layout: layout, columns: .models, db: db)
        }
        return (statement.sql, statement.values)
    }

    /// What deleting every `T` runs before its `DELETE FROM` with enforcement off, or nil when
    /// SQLite's own enforcement does it (``SQLiteEmptying``).
    package func emptyingStatementsForTesting<T: PersistentModel>(_: T.Type) throws -> [String]? {
        let table = try layout(forEntity: Schema.entityName(for: T.self)).table.name
        return try readForTesting { db in try SQLiteEmptying(emptying: table, db: db)?.statements }
    }

    /// Hands every statement the store's connection runs from now on to `record`, as SQL with
    /// placeholders, for tests that assert which statement a write chose.
    package func traceStatementsForTesting(_ record: @escaping @Sendable (String) -> Void) {
        database.inDatabase { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { record(statement.sql) }
            }
        }
    }

    /// Runs raw SQL reads against the store's connection, for tests that inspect the file.
    package func readForTesting<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    /// Runs raw SQL writes against the store's connection, for tests that give the file the
    /// layout an earlier version wrote.
    package func writeForTesting<T>(_ body: (Database) throws -> T) throws -> T {
        try database.write(body)
    }
}

extension DefaultStore {
    /// How many query shapes have a kept `SELECT` plan.
    package var selectPlanCountForTesting: Int { selectPlans.count }
}
