import Foundation
import GRDB
import OpenSwiftData
import Testing

/// `delete(model:)` without a predicate empties the table with SQLite's foreign-key enforcement
/// off for that transaction, doing the references' actions itself.
@Suite struct SQLiteEmptyingTests {
    private func graph(at url: URL? = nil) throws -> (ModelContainer, ModelContext, DefaultStore) {
        let configuration = url.map { ModelConfiguration(url: $0) } ?? ModelConfiguration(isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: Schema(RelationshipGraph.types), configurations: configuration)
        let context = ModelContext(container)
        RelationshipGraph.insert(into: context)
        try context.save()
        return (container, context, try #require(container.stores.first?.store as? DefaultStore))
    }

    @Test func eachReferenceToTheTableBecomesOneStatementAndATableNothingTouchesKeepsEnforcement() throws {
        let (_, _, store) = try graph()
        #expect(try store.emptyingStatementsForTesting(RelTrip.self) == [
            #"UPDATE "RelItem" SET "trip" = NULL WHERE "trip" IS NOT NULL"#,
            #"UPDATE "RelStay" SET "trip" = NULL WHERE "trip" IS NOT NULL"#,
            #"DELETE FROM "osd_RelTraveler.trips""#,
        ])
        #expect(try store.emptyingStatementsForTesting(RelItem.self) == [])
        #expect(try store.emptyingStatementsForTesting(RelTraveler.self) == [#"DELETE FROM "osd_RelTraveler.trips""#])
        let plain = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let plainStore = try #require(plain.stores.first?.store as? DefaultStore)
        #expect(try plainStore.emptyingStatementsForTesting(StoreVisit.self) == nil)
    }

    /// A trip's bucket list and stay are `.cascade`: they go with it, and its join rows too.
    @Test func deletingEveryTripDeletesItsCascadedModelsAndTheirJoinRows() throws {
        let (container, context, store) = try graph()
        try context.delete(model: RelTrip.self)
        let (items, stays, pairs, travelers) = try store.readForTesting { db in
            (try String.fetchAll(db, sql: #"SELECT "title" || ':' || ifnull("trip", '-') FROM "RelItem" ORDER BY "title""#),
             try String.fetchAll(db, sql: #"SELECT "place" || ':' || ifnull("trip", '-') FROM "RelStay""#),
             try Int.fetchOne(db, sql: #"SELECT count(*) FROM "osd_RelTraveler.trips""#),
             try String.fetchAll(db, sql: #"SELECT "name" FROM "RelTraveler" ORDER BY "name""#))
        }
        #expect(items == [])
        #expect(stays == [])
        #expect(pairs == 0)
        #expect(travelers == ["Ana", "Ben"])
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<RelTrip>()) == 0)
        #expect(try reader.fetch(FetchDescriptor<RelTraveler>()).map(\.trips.count) == [0, 0])
    }

    @Test func deletingEveryStayAndTravelerClearsTheTripsSideAndLeavesTheTrips() throws {
        let (container, context, _) = try graph()
        try context.delete(model: RelStay.self)
        try context.delete(model: RelTraveler.self)
        let reader = ModelContext(container)
        let trips = try reader.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Paris", "Rome"])
        #expect(trips.map { $0.accommodation == nil } == [true, true, true])
        #expect(trips.map(\.travelers.count) == [0, 0, 0])
        #expect(trips.map(\.bucketList.count) == [0, 3, 1])
    }

    @Test func foreignKeysAreEnforcedAgainAfterwards() throws {
        let (_, context, store) = try graph()
        try context.delete(model: RelTrip.self)
        let (enforced, violations) = try store.readForTesting { db in
            (try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
        }
        #expect(enforced == 1)
        #expect(violations == 0)
    }

    /// A foreign key the store did not write (here `NO ACTION`, added by another program) keeps
    /// SQLite's enforcement: the delete is refused and nothing is deleted.
    @Test func aReferenceWithAnotherActionRefusesTheDeleteAndKeepsTheRows() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("graph.store")
        let (container, context, _) = try graph(at: url)
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in
            try db.execute(sql: #"CREATE TABLE "Visa" ("trip" INTEGER REFERENCES "RelTrip"("Z_PK"))"#)
            try db.execute(sql: #"INSERT INTO "Visa" SELECT "Z_PK" FROM "RelTrip" WHERE "name" = 'Rome'"#)
        }
        try other.close()
        let store = try #require(container.stores.first?.store as? DefaultStore)
        #expect(try store.emptyingStatementsForTesting(RelTrip.self) == nil)
        let error = try #require(throws: SQLiteStoreError.self) { try context.delete(model: RelTrip.self) }
        #expect(error.code == .invalidReference)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RelTrip>()) == 3)
    }

    /// The store keeps each table's plan after the first delete, but not across a change to the
    /// file's schema: a reference another program adds afterwards still keeps the rows.
    @Test func aReferenceAddedAfterTheTableWasFirstEmptiedRefusesTheNextDelete() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("graph.store")
        let (container, _, _) = try graph(at: url)
        // A traveler has no rule for the store to follow in the context, so the store empties
        // the table itself.
        try ModelContext(container).delete(model: RelTraveler.self)
        let context = ModelContext(container)
        context.insert(RelTraveler(name: "Cy"))
        try context.save()
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in
            try db.execute(sql: #"CREATE TABLE "Visa" ("traveler" INTEGER REFERENCES "RelTraveler"("Z_PK"))"#)
            try db.execute(sql: #"INSERT INTO "Visa" SELECT "Z_PK" FROM "RelTraveler""#)
        }
        try other.close()
        let error = try #require(throws: SQLiteStoreError.self) { try ModelContext(container).delete(model: RelTraveler.self) }
        #expect(error.code == .invalidReference)
        #expect(try ModelContext(container).fetch(FetchDescriptor<RelTraveler>()).map(\.name) == ["Cy"])
    }

    @Test func deletingEveryItemDropsSavedAndNewItemsAndKeepsTheOtherEntitiesRegistered() throws {
        let (container, context, _) = try graph()
        let items = try context.fetch(FetchDescriptor<RelItem>())
        let trips = try context.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)]))
        let pending = RelItem(title: "Opera")
        context.insert(pending)
        try context.delete(model: RelItem.self)
        #expect(items.count == 4)
        #expect((items + [pending]).allSatisfy { $0.isDeleted && $0.modelContext == nil })
        #expect(context.registeredModel(for: items[0].persistentModelID) as RelItem? == nil)
        #expect(trips.map { context.registeredModel(for: $0.persistentModelID) as RelTrip? === $0 } == [true, true, true])
        trips[0].name = "Bergen"
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RelTrip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Bergen", "Paris", "Rome"])
        #expect(try reader.fetchCount(FetchDescriptor<RelItem>()) == 0)
    }
}
