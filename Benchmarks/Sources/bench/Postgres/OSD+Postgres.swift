import OpenSwiftData
import PostgresStore

extension Child {
    /// The simple and lookup subjects on PostgreSQL, each on the bench database emptied anew.
    static func postgresUsers(_ contender: Contender, unique: Bool) throws -> any SimpleSubject & LookupSubject {
        if contender == .postgresRaw { return try RawPostgresUsers(unique: unique) }
        let schema = Schema([OSDUsers.model(unique: unique)])
        let configuration = try PostgresStoreConfiguration(schema: schema, url: try BenchPostgres.freshDatabase())
        return OSDUsers(try ModelContainer(for: schema, configurations: [configuration]), unique: unique)
    }
}
