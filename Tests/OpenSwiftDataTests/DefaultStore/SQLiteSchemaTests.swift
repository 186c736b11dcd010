import Foundation
import GRDB
import OpenSwiftData
import Testing

@Suite struct SQLiteSchemaTests {
    private func schemaSQL(_ types: any PersistentModel.Type...) throws -> [String] {
        let container = try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let store = try #require(container.stores.first?.store as? DefaultStore)
        return try store.readForTesting { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT IN ('osd_metadata', 'sqlite_sequence') AND name NOT LIKE 'osd_history%' ORDER BY type DESC, name")
        }
    }

    /// SQLite keeps this text in every file (without `IF NOT EXISTS`): it must not change.
    @Test func storeOwnTablesKeepTheirSQLText() throws {
        let container = try ModelContainer(for: Schema([StoreBooking.self]), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let sql = try store.readForTesting { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name LIKE 'osd\\_%' ESCAPE '\\' AND tbl_name NOT LIKE 'StoreBooking' ORDER BY type DESC, name")
        }
        #expect(sql == [
            #"CREATE TABLE "osd_history_changes" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "transactionNumber" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "entity" TEXT NOT NULL, "key" INTEGER NOT NULL, "attributes" TEXT, "lastKey" INTEGER, "keys" TEXT, "numbers" TEXT)"#,
            #"CREATE TABLE "osd_history_tombstones" ("change" INTEGER NOT NULL, "property" TEXT NOT NULL, "value")"#,
            #"CREATE TABLE "osd_history_transactions" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "timestamp" REAL NOT NULL, "author" TEXT, "bundle" TEXT NOT NULL, "process" TEXT NOT NULL)"#,
            #"CREATE TABLE "osd_metadata" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#,
            #"CREATE INDEX "osd_history_changes_transaction" ON "osd_history_changes" ("transactionNumber")"#,
            #"CREATE INDEX "osd_history_tombstones_change" ON "osd_history_tombstones" ("change")"#,
        ])
    }

    @Test func tablesHaveOneTypedColumnPerPropertyAndIndexesForConstraints() throws {
        #expect(try schemaSQL(StoreBooking.self) == [
            #"CREATE TABLE "StoreBooking" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "hotel" TEXT NOT NULL, "night" INTEGER NOT NULL, "guest" TEXT NOT NULL)"#,
            #"CREATE INDEX "osd_StoreBooking_index_guest" ON "StoreBooking" ("guest")"#,
            #"CREATE INDEX "osd_StoreBooking_index_hotel_guest" ON "StoreBooking" ("hotel", "guest")"#,
            #"CREATE UNIQUE INDEX "osd_StoreBooking_unique_hotel_night" ON "StoreBooking" ("hotel", "night")"#,
        ])
    }

    @Test func relationshipsWithoutInverseAreAForeignKeyOrAJoinTable() throws {
        #expect(try schemaSQL(StoreTrip.self) == [
            #"CREATE TABLE "StoreTraveller" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "email" TEXT NOT NULL, "name" TEXT NOT NULL)"#,
            #"CREATE TABLE "StoreTrip" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "nights" INTEGER NOT NULL, "budget" REAL NOT NULL, "startDate" REAL NOT NULL, "notes" TEXT, "traveller" INTEGER REFERENCES "StoreTraveller"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED)"#,
            #"CREATE TABLE "StoreVisit" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "place" TEXT NOT NULL)"#,
            #"CREATE TABLE "osd_StoreTrip.visits" ("owner" INTEGER NOT NULL REFERENCES "StoreTrip"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "member" INTEGER NOT NULL REFERENCES "StoreVisit"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, PRIMARY KEY ("owner", "member"))"#,
            #"CREATE UNIQUE INDEX "osd_StoreTraveller_unique_email" ON "StoreTraveller" ("email")"#,
            #"CREATE INDEX "osd_StoreTrip.visits_member" ON "osd_StoreTrip.visits" ("member")"#,
            #"CREATE INDEX "osd_StoreTrip_reference_traveller" ON "StoreTrip" ("traveller")"#,
        ])
    }

    @Test func everyValueKindGetsItsDeclaredType() throws {
        #expect(try schemaSQL(StoreValues.self) == [
            #"CREATE TABLE "StoreValues" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "flag" INTEGER NOT NULL, "int" INTEGER NOT NULL, "int8" INTEGER NOT NULL, "int16" INTEGER NOT NULL, "int32" INTEGER NOT NULL, "int64" INTEGER NOT NULL, "uint8" INTEGER NOT NULL, "uint" INTEGER NOT NULL, "uint64" INTEGER NOT NULL, "double" REAL NOT NULL, "float" REAL NOT NULL, "text" TEXT NOT NULL, "date" REAL NOT NULL, "uuid" TEXT NOT NULL, "url" TEXT NOT NULL, "data" BLOB NOT NULL, "mood" TEXT NOT NULL, "level" INTEGER NOT NULL, "spot" TEXT NOT NULL, "tags" TEXT NOT NULL, "scores" TEXT NOT NULL, "table" TEXT NOT NULL, "maybeText" TEXT, "maybeInt" INTEGER, "maybeDate" REAL, "maybeMood" TEXT, "maybeSpot" TEXT)"#,
        ])
    }

    @Test func savedKeysAreNeverReusedAfterADelete() throws {
        let container = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let first = StoreVisit(place: "a")
        context.insert(first)
        try context.save()
        context.delete(first)
        try context.save()
        let second = StoreVisit(place: "b")
        context.insert(second)
        try context.save()
        #expect(first.persistentModelID != second.persistentModelID)
        #expect(try ModelContext(container).fetch(FetchDescriptor<StoreVisit>()).map(\.place) == ["b"])
    }
}
