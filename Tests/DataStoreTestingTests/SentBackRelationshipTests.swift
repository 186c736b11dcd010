import DataStoreTesting
import Foundation
import OpenSwiftData
import Testing

/// A `contains(where:)` a custom store sends back is tested on its stored rows, related ones
/// included, before any model is built; a batch delete the store sends back still happens in it.
@Suite struct SentBackRelationshipTests {
    private func saved(_ counts: SampleRowStore.Counts) throws -> (ModelContainer, [RowNote]) {
        let container = try RowFixtures.container("sent-back", counts: counts, sendsQueriesBack: true)
        return (container, try RowFixtures.saveNotes(in: container))
    }

    @Test func aRelationshipPredicateBuildsOnlyTheKeptModelsAndNoRelatedOnes() throws {
        let counts = SampleRowStore.Counts()
        let (container, notes) = try saved(counts)
        let fetchesBefore = counts.rowFetches

        let reader = ModelContext(container)
        let home = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.contains { $0.label == "home" } }))
        #expect(home.map(\.title) == ["Groceries", "Trip"])
        // The ask the store sends back, the notes again without the predicate, then every tag
        // once: no fetch per note.
        #expect(counts.rowFetches - fetchesBefore == 3)
        let registeredNotes = notes.map { (reader.registeredModel(for: $0.persistentModelID) as RowNote?)?.title }
        #expect(registeredNotes == ["Groceries", nil, "Trip", nil])
        let registeredTags = notes.flatMap(\.tags).filter { (reader.registeredModel(for: $0.persistentModelID) as RowTag?) != nil }
        #expect(registeredTags.isEmpty)
        #expect(home[0].tags.map(\.label).sorted() == ["home", "weekly"])
    }

    @Test func anUnsavedChangeOfARelatedModelIsMatchedByItsNewValue() throws {
        let (container, _) = try saved(SampleRowStore.Counts())
        let reader = ModelContext(container)
        let later = try #require(try reader.fetch(FetchDescriptor<RowTag>(predicate: #Predicate { $0.label == "later" })).first)
        later.label = "home"
        let home = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.contains { $0.label == "home" } }))
        #expect(home.map(\.title).sorted() == ["Groceries", "Ideas", "Trip"])
        #expect(try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.contains { $0.label == "later" } })).isEmpty)
    }

    @Test func aNegatedRelationshipPredicateKeepsTheModelsWithNoRelatedOnes() throws {
        let (container, _) = try saved(SampleRowStore.Counts())
        let reader = ModelContext(container)
        let notHome = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { !$0.tags.contains { $0.label == "home" } }))
        #expect(notHome.map(\.title) == ["Ideas", "Empty"])
    }

    @Test func deletingAWholeEntityIsOneStoreCallWithNothingLeftToSave() throws {
        let counts = SampleRowStore.Counts()
        let (container, _) = try saved(counts)
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<RowTag>()).count == 4)
        let saves = counts.rowSaves

        try context.delete(model: RowTag.self)
        #expect(counts.batchDeletes == 1)
        #expect(!context.hasChanges)
        #expect(counts.rowSaves == saves)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<RowTag>()) == 0)
        #expect(try ModelContext(container).fetch(FetchDescriptor<RowNote>()).map(\.tags.count) == [0, 0, 0, 0])
    }

    @Test func aBatchDeleteWhosePredicateIsSentBackStillDeletesInTheStore() throws {
        let counts = SampleRowStore.Counts()
        let container = try RowFixtures.container("batch", counts: counts, sendsQueriesBack: true)
        let writer = ModelContext(container)
        for (title, priority) in [("a", 1), ("b", 2), ("c", 3), ("d", 2)] { writer.insert(RowTask(title: title, priority: priority)) }
        try writer.save()
        let saves = counts.rowSaves

        let context = ModelContext(container)
        try context.delete(model: RowTask.self, where: #Predicate { $0.priority >= 2 })
        // The predicate, sent back; then the identifiers of the three the context found.
        #expect(counts.batchDeletes == 2)
        #expect(!context.hasChanges)
        #expect(counts.rowSaves == saves)
        let left = try ModelContext(container).fetch(FetchDescriptor<RowTask>())
        #expect(left.map(\.title) == ["a"])
    }
}
