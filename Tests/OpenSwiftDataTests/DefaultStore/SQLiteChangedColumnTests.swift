import Foundation
import GRDB
import OpenSwiftData
import Testing

/// A save of a changed model writes only the columns of the properties that changed.
@Suite struct SQLiteChangedColumnTests {
    private func savedTraveller(at url: URL) throws -> (ModelContainer, ModelContext, StoreTraveller) {
        let container = try ModelContainer(for: StoreTraveller.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let traveller = StoreTraveller(email: "ana@example.com", name: "Ana")
        context.insert(traveller)
        try context.save()
        return (container, context, traveller)
    }

    /// Runs `sql` through a connection of its own, as another process would.
    private func anotherWriter(at url: URL, _ sql: String) throws {
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in try db.execute(sql: sql) }
        try other.close()
    }

    private func rows(at url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: #"SELECT "email" || ' ' || "name" FROM "StoreTraveller" ORDER BY "Z_PK""#) }
    }

    @Test func aSaveLeavesTheColumnsItDidNotChangeAsAnotherWriterLeftThem() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("travellers.store")
        let (_, context, traveller) = try savedTraveller(at: url)
        try anotherWriter(at: url, #"UPDATE "StoreTraveller" SET "email" = 'ana@elsewhere.org'"#)
        traveller.name = "Ana María"
        try context.save()
        #expect(try rows(at: url) == ["ana@elsewhere.org Ana María"])
    }

    @Test func aChangedModelWhoseRowAnotherWriterDeletedIsWrittenWhole() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("travellers.store")
        let (_, context, traveller) = try savedTraveller(at: url)
        try anotherWriter(at: url, #"DELETE FROM "StoreTraveller""#)
        traveller.name = "Ana María"
        try context.save()
        #expect(try rows(at: url) == ["ana@example.com Ana María"])
    }

    @Test func aRolledBackChangeIsNotWrittenByTheNextSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("travellers.store")
        let (_, context, traveller) = try savedTraveller(at: url)
        traveller.email = "typo@example.com"
        context.rollback()
        try anotherWriter(at: url, #"UPDATE "StoreTraveller" SET "email" = 'ana@elsewhere.org'"#)
        traveller.name = "Ana María"
        try context.save()
        #expect(try rows(at: url) == ["ana@elsewhere.org Ana María"])
    }

    @Test func changedSlotsPastTheBitsAreAllSlots() {
        var slots = ChangedSlots()
        #expect(slots.isEmpty)
        slots.insert(3)
        #expect(slots.isKnown && slots.contains(3) && !slots.contains(4) && !slots.contains(80))
        slots.insert(64)
        #expect(!slots.isKnown && !slots.isEmpty && slots.contains(4) && slots.contains(80))
    }
}
