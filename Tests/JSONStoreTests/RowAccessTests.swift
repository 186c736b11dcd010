import Foundation
import JSONStore
import OpenSwiftData
import Testing

/// The JSON store hands contexts rows (`DataStoreRowAccess`), read from the file in row order.
@Suite struct RowAccessTests {
    @Test func fetchedRowsHoldEachModelsValuesInLayoutOrder() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let container = try notesContainer(url)
        let writer = ModelContext(container)
        let tag = JSONTag(name: "work")
        writer.insert(JSONNote(title: "b", created: Date(timeIntervalSince1970: 20), body: "second", tag: tag))
        writer.insert(JSONNote(title: "a", created: Date(timeIntervalSince1970: 10)))
        try writer.save()

        // A store opened anew reads the file, so the rows are what the file holds.
        let store = try JSONStore(JSONStoreConfiguration(name: "notes", schema: Schema([JSONNote.self, JSONTag.self]), url: url))
        let rows = try store.fetchRows(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)]), editingState: EditingState())
        #expect(DataStoreRowLayout(for: JSONNote.self).propertyNames == ["title", "created", "body", "tag"])
        #expect(rows.map(\.values.count) == [4, 4])
        #expect(rows.map { $0.values[0] as? String } == ["a", "b"])
        #expect(rows.map { $0.values[1] as? Date } == [Date(timeIntervalSince1970: 10), Date(timeIntervalSince1970: 20)])
        #expect(rows[1].values[2] as? String == "second")
        #expect(rows[1].values[3] as? PersistentIdentifier == tag.persistentModelID)
        #expect(rows[0].values[3] as? PersistentIdentifier == nil)
        #expect(rows.map(\.persistentIdentifier.storeIdentifier) == ["notes.json", "notes.json"])
    }

    @Test func aFetchedRowsLimitAndOffsetApply() throws {
        let scratch = try ScratchDirectory()
        let container = try notesContainer(scratch.file("notes.json"))
        let context = ModelContext(container)
        for title in ["c", "a", "d", "b"] { context.insert(JSONNote(title: title)) }
        try context.save()
        var descriptor = FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title, order: .reverse)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try ModelContext(container).fetch(descriptor).map(\.title) == ["c", "b"])
    }

    @Test func anInsertMergedOnAUniqueNameTakesTheStoredModelsIdentifier() throws {
        let scratch = try ScratchDirectory()
        let container = try notesContainer(scratch.file("notes.json"))
        let first = ModelContext(container)
        let work = JSONTag(name: "work")
        first.insert(work)
        try first.save()

        let second = ModelContext(container)
        let home = JSONTag(name: "home")
        let again = JSONTag(name: "work")
        second.insert(home)
        second.insert(again)
        try second.save()
        #expect(again.persistentModelID == work.persistentModelID)
        #expect(home.persistentModelID != work.persistentModelID)
        #expect(home.persistentModelID.storeIdentifier == "notes.json")
        let names = try ModelContext(container).fetch(FetchDescriptor<JSONTag>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["home", "work"])
    }
}

/// Each entity's models are kept in a list of their own, which saves keep in file order.
@Suite struct EntityListTests {
    @Test func anUnsortedFetchListsEachEntityInFileOrderAcrossUpdatesDeletesAndInserts() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let container = try notesContainer(url)
        let context = ModelContext(container)
        let notes = ["a", "b", "c"].map { JSONNote(title: $0) }
        for note in notes { context.insert(note) }
        context.insert(JSONTag(name: "work"))
        try context.save()
        context.delete(notes[1])
        notes[2].body = "changed"
        context.insert(JSONNote(title: "d"))
        context.insert(JSONTag(name: "home"))
        try context.save()

        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<JSONNote>()).map { "\($0.title):\($0.body ?? "-")" } == ["a:-", "c:changed", "d:-"])
        #expect(try reader.fetch(FetchDescriptor<JSONTag>()).map(\.name) == ["work", "home"])
        #expect(try reader.fetch(FetchDescriptor<JSONNote>(predicate: #Predicate { $0.body != nil })).map(\.title) == ["c"])
        // The file read anew holds the same lists.
        let reopened = ModelContext(try notesContainer(url))
        #expect(try reopened.fetch(FetchDescriptor<JSONNote>()).map(\.title) == ["a", "c", "d"])
    }
}
