import Foundation
import OpenSwiftDataCore

extension PostgresStore {
    /// The `SELECT` a fetch of `descriptor` runs, placeholders numbered; throws
    /// `DataStoreError.preferInMemoryFilter` where the store leaves the predicate to the context.
    package func selectStatementForTesting<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> String {
        let query = try query(descriptor, sorted: true)
        let layout = try layout(query.entityName)
        return try statement(query, layout: layout, columns: .models).sql
    }
}

extension PostgresStore {
    /// How many `SELECT`s the store keeps rendered, one per query shape.
    package var selectPlanCountForTesting: Int { selectPlans.count }
}

extension PostgresStore {
    /// Runs one statement on a connection of the pool, as the store's own calls do.
    package func runForTesting(_ sql: String) throws {
        try pool.withConnection { connection in _ = try pool.run(sql, on: connection) }
    }
}
