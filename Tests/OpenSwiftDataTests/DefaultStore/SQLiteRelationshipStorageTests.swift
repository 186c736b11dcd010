import Foundation
import GRDB
import OpenSwiftData
import Testing

/// How the SQLite store keeps relationships: to-ones as foreign keys, one-to-manys read back from
/// them, many-to-manys in join tables.
@Suite struct SQLiteRelationshipStorageTests {
    private func schemaSQL(_ container: ModelContainer) throws -> [String] {
        let store = try #require(container.stores.first?.store as? DefaultStore)
        return try store.readForTesting { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT IN ('osd_metadata', 'sqlite_sequence') AND name NOT LIKE 'osd_history%' ORDER BY type DESC, name")
        }
    }

    @Test func toOnesAreForeignKeysOneToManysHaveNoColumnAndManyToManysAJoinTable() throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(try schemaSQL(container) == [
            #"CREATE TABLE "RelItem" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "isDone" INTEGER NOT NULL, "trip" INTEGER REFERENCES "RelTrip"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED)"#,
            #"CREATE TABLE "RelStay" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "place" TEXT NOT NULL, "trip" INTEGER REFERENCES "RelTrip"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED)"#,
            #"CREATE TABLE "RelTraveler" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL)"#,
            #"CREATE TABLE "RelTrip" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "accommodation" INTEGER REFERENCES "RelStay"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED, "companion" INTEGER REFERENCES "RelTrip"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED)"#,
            #"CREATE TABLE "osd_RelTraveler.trips" ("owner" INTEGER NOT NULL REFERENCES "RelTraveler"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "member" INTEGER NOT NULL REFERENCES "RelTrip"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, PRIMARY KEY ("owner", "member"))"#,
            #"CREATE INDEX "osd_RelItem_reference_trip" ON "RelItem" ("trip")"#,
            #"CREATE INDEX "osd_RelStay_reference_trip" ON "RelStay" ("trip")"#,
            #"CREATE INDEX "osd_RelTraveler.trips_member" ON "osd_RelTraveler.trips" ("member")"#,
            #"CREATE INDEX "osd_RelTrip_reference_accommodation" ON "RelTrip" ("accommodation")"#,
            #"CREATE INDEX "osd_RelTrip_reference_companion" ON "RelTrip" ("companion")"#,
        ])
    }

    @Test func aGraphWithACycleReadsBackFromAFreshContainer() throws {
        let directory = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: directory.file("graph.store"))
        do {
            let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: configuration)
            let context = ModelContext(container)
            RelationshipGraph.insert(into: context)
            try context.save()
        }
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: configuration)
        let reader = ModelContext(container)
        let trips = try reader.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Paris", "Rome"])
        let (oslo, paris, rome) = (trips[0], trips[1], trips[2])
        #expect(paris.accommodation?.place == "Hôtel Lutetia")
        #expect(paris.accommodation?.trip === paris)
        #expect(paris.bucketList.map(\.title).sorted() == ["Eiffel Tower", "Louvre", "Seine cruise"])
        #expect(paris.bucketList.allSatisfy { $0.trip === paris })
        #expect(rome.bucketList.map(\.title) == ["Colosseum"])
        #expect(oslo.bucketList.isEmpty && oslo.travelers.isEmpty && oslo.accommodation == nil && oslo.companion == nil)
        #expect(paris.travelers.map(\.name).sorted() == ["Ana", "Ben"])
        #expect(rome.travelers.map(\.name) == ["Ana"])
        let ana = try #require(rome.travelers.first)
        #expect(ana.trips.map(\.name).sorted() == ["Paris", "Rome"])
        #expect(paris.companion === rome && rome.companion === paris)
    }

    @Test func eachRelationshipIsStoredOnceInItsColumnOrJoinTable() throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        RelationshipGraph.insert(into: context)
        try context.save()
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let (items, pairs) = try store.readForTesting { db in
            (try String.fetchAll(db, sql: #"SELECT i."title" || ' @ ' || t."name" FROM "RelItem" i JOIN "RelTrip" t ON t."Z_PK" = i."trip" ORDER BY i."title""#),
             try String.fetchAll(db, sql: #"SELECT r."name" || ' @ ' || t."name" FROM "osd_RelTraveler.trips" j JOIN "RelTraveler" r ON r."Z_PK" = j."owner" JOIN "RelTrip" t ON t."Z_PK" = j."member" ORDER BY 1"#))
        }
        #expect(items == ["Colosseum @ Rome", "Eiffel Tower @ Paris", "Louvre @ Paris", "Seine cruise @ Paris"])
        #expect(pairs == ["Ana @ Paris", "Ana @ Rome", "Ben @ Paris"])
    }

    @Test func deletingARowClearsForeignKeysAndJoinRowsInTheSameSave() throws {
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        RelationshipGraph.insert(into: context)
        try context.save()
        let rome = try #require(context.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Rome" })).first)
        context.delete(rome)
        try context.save()
        let reader = ModelContext(container)
        let paris = try #require(reader.fetch(FetchDescriptor<RelTrip>(predicate: #Predicate { $0.name == "Paris" })).first)
        #expect(paris.companion == nil)
        let travelers = try reader.fetch(FetchDescriptor<RelTraveler>(sortBy: [SortDescriptor(\.name)]))
        #expect(travelers.map { $0.trips.map(\.name) } == [["Paris"], ["Paris"]])
        #expect(try reader.fetch(FetchDescriptor<RelItem>()).map(\.title).sorted() == ["Eiffel Tower", "Louvre", "Seine cruise"])
    }

    @Test func aFileOfTheEarlierFormatWithoutRelationshipsOpensAndIsMarkedCurrent() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("old.store")
        do {
            _ = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE osd_metadata SET value = '1' WHERE key = 'format'") }
        try queue.close()
        let container = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
        let store = try #require(container.stores.first?.store as? DefaultStore)
        #expect(try store.readForTesting { db in try String.fetchOne(db, sql: "SELECT value FROM osd_metadata WHERE key = 'format'") } == "2")
    }

    @Test func aFileOfTheEarlierFormatWithRelationshipsIsRefusedSayingWhatToDo() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("old.store")
        do {
            _ = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(url: url))
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE osd_metadata SET value = '1' WHERE key = 'format'")
            try db.execute(sql: #"UPDATE osd_metadata SET value = replace(value, '"storage":"toManyByInverse"', '"storage":"toMany"') WHERE key = 'tables'"#)
        }
        try queue.close()
        let error = try #require(throws: SQLiteStoreError.self) {
            try ModelContainer(for: Schema(RelationshipGraph.types), configurations: ModelConfiguration(url: url))
        }
        #expect(error.code == .unsupportedFormat)
        #expect(error.message == "The store was written in format 1 by an earlier OpenSwiftData, which kept relationships as key columns and JSON key lists; this release (format 2) keeps them in foreign keys and join tables and does not convert them. Move the file (and its -wal and -shm files) aside to start a new store, or read it with the earlier release.")
    }
}
