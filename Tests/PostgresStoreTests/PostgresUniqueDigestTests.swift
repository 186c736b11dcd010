import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// Unique text is indexed by its digest, so that values longer than a b-tree entry fit; what the
/// conformance kit's long-value check cannot see: the indexes themselves, and a database whose
/// unique index keyed the column itself, as releases before did.
@Suite struct PostgresUniqueDigestTests {
    private func container(_ url: String) throws -> ModelContainer {
        try ModelContainer(for: PGTicket.self, configurations: try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url))
    }

    private func strings(_ sql: String, _ url: String) throws -> [String] {
        try TestDatabase.strings(sql, in: try PostgresStoreConfiguration(url: url))
    }

    private func indexes(_ url: String) throws -> [String] {
        try strings("SELECT indexdef FROM pg_indexes WHERE tablename = 'PGTicket' ORDER BY indexname", url)
    }

    private static let indexes = [
        #"CREATE UNIQUE INDEX "PGTicket_pkey" ON public."PGTicket" USING btree ("Z_PK")"#,
        #"CREATE INDEX "osd_PGTicket_lookup_code" ON public."PGTicket" USING hash (code)"#,
        #"CREATE UNIQUE INDEX "osd_PGTicket_uniquedigest_code" ON public."PGTicket" USING btree (osd_text_digest(code))"#,
    ]

    @Test func aUniqueTextColumnIsIndexedByItsDigestAndLookedUpThroughAHashIndex() throws {
        let url = try TestDatabase.makeDatabase()
        _ = try container(url)
        #expect(try indexes(url) == Self.indexes)
    }

    @Test func aDatabaseWhoseUniqueIndexKeyedTheColumnGetsTheDigestIndexAsItOpens() throws {
        let url = try TestDatabase.makeDatabase()
        let context = ModelContext(try container(url))
        context.insert(PGTicket(code: "A1", seats: 1))
        try context.save()
        // As releases before this one left the database: a b-tree on the column, no digest function.
        for statement in [#"DROP INDEX "osd_PGTicket_uniquedigest_code", "osd_PGTicket_lookup_code""#, "DROP FUNCTION osd_text_digest(text)",
                          #"CREATE UNIQUE INDEX "osd_PGTicket_unique_code" ON "PGTicket" ("code")"#] {
            _ = try strings(statement, url)
        }
        let container = try container(url)
        #expect(try indexes(url) == Self.indexes)

        let long = String(repeating: "x", count: 1_000_000)
        let writer = ModelContext(container)
        writer.insert(PGTicket(code: "A1", seats: 2))
        writer.insert(PGTicket(code: long, seats: 3))
        try writer.save()
        let merging = ModelContext(container)
        merging.insert(PGTicket(code: long, seats: 4))
        try merging.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTicket>(sortBy: [SortDescriptor(\.seats)]))
        #expect(stored.map(\.seats) == [2, 4], "inserts equal on a stored code, short or long, update the stored model")
        #expect(stored.map(\.code.utf8.count) == [2, 1_000_000])
    }
}
