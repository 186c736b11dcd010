import Foundation
import GRDB
import OpenSwiftData
import Testing

/// A save of a changed model writes only the columns of the properties that changed.
@Suite struct SQLiteChangedColumnTests {
    /// Saves a traveller, runs `first` on it, lets another connection run `sql` on the file (as
    /// another process would), renames the traveller, saves, and answers the file's rows.
    private func renamedAfterAnotherWriter(_ sql: String, first: (ModelContext, StoreTraveller) -> Void = { _, _ in }) throws -> [String] {
        let directory = try TemporaryDirectory()
        let url = directory.file("travellers.store")
        let container = try ModelContainer(for: StoreTraveller.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let traveller = StoreTraveller(email: "ana@example.com", name: "Ana")
        context.insert(traveller)
        try context.save()
        first(context, traveller)
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in try db.execute(sql: sql) }
        try other.close()
        traveller.name = "Ana María"
        try context.save()
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: #"SELECT "email" || ' ' || "name" FROM "StoreTraveller" ORDER BY "Z_PK""#) }
    }

    @Test func aSaveLeavesTheColumnsItDidNotChangeAsAnotherWriterLeftThem() throws {
        #expect(try renamedAfterAnotherWriter(#"UPDATE "StoreTraveller" SET "email" = 'ana@elsewhere.org'"#) == ["ana@elsewhere.org Ana María"])
    }

    @Test func aChangedModelWhoseRowAnotherWriterDeletedIsWrittenWhole() throws {
        #expect(try renamedAfterAnotherWriter(#"DELETE FROM "StoreTraveller""#) == ["ana@example.com Ana María"])
    }

    @Test func aRolledBackChangeIsNotWrittenByTheNextSave() throws {
        let rows = try renamedAfterAnotherWriter(#"UPDATE "StoreTraveller" SET "email" = 'ana@elsewhere.org'"#) { context, traveller in
            traveller.email = "typo@example.com"
            context.rollback()
        }
        #expect(rows == ["ana@elsewhere.org Ana María"])
    }

    @Test func changedSlotsPastTheBitsAreAllSlots() {
        var slots = ChangedSlots()
        #expect(slots == ChangedSlots())
        slots.insert(3)
        #expect(slots.isKnown && slots.contains(3) && !slots.contains(4) && !slots.contains(80))
        slots.insert(64)
        #expect(!slots.isKnown && slots != ChangedSlots() && slots.contains(4) && slots.contains(80))
    }
}
