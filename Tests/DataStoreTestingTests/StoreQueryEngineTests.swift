import DataStoreTesting
import Foundation
import OpenSwiftData
import Testing

/// A store written outside the library runs its queries with the public `SnapshotQueryEngine`:
/// relationship predicates, sorts and pages are answered in one fetch, and what the engine cannot
/// run exactly still goes back to the context.
@Suite struct StoreQueryEngineTests {
    private func saved(_ counts: SampleRowStore.Counts) throws -> ModelContainer {
        let container = try RowFixtures.container("engine", counts: counts, sendsQueriesBack: false)
        try RowFixtures.saveNotes(in: container)
        try RowFixtures.saveTasks(in: container)
        return container
    }

    @Test func aRelationshipPredicateIsAnsweredByTheStoreInOneFetch() throws {
        let counts = SampleRowStore.Counts()
        let container = try saved(counts)
        let fetchesBefore = counts.rowFetches

        let reader = ModelContext(container)
        let home = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.contains { $0.label == "home" } }))
        #expect(home.map(\.title) == ["Groceries", "Trip"])
        #expect(counts.rowFetches - fetchesBefore == 1)
        #expect(counts.sentBack == 0)
        let notHome = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { !$0.tags.contains { $0.label == "home" } }))
        #expect(notHome.map(\.title) == ["Ideas", "Empty"])
    }

    @Test func aCountIsAnsweredByTheStore() throws {
        let counts = SampleRowStore.Counts()
        let reader = ModelContext(try saved(counts))
        #expect(try reader.fetchCount(FetchDescriptor<RowTask>(predicate: #Predicate { $0.priority == 2 })) == 2)
        #expect(counts.sentBack == 0)
    }

    @Test func aPredicateTheEngineCannotRunGoesBackToTheContext() throws {
        let counts = SampleRowStore.Counts()
        let reader = ModelContext(try saved(counts))

        let untagged = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.filter { $0.label == "home" }.isEmpty }))
        #expect(untagged.map(\.title) == ["Ideas", "Empty"])
        #expect(counts.sentBack == 1)
    }

    @Test func aBatchDeleteWithAPredicateRunsInTheStore() throws {
        let counts = SampleRowStore.Counts()
        let container = try saved(counts)
        let saves = counts.rowSaves

        let context = ModelContext(container)
        try context.delete(model: RowTask.self, where: #Predicate { $0.priority >= 2 })
        #expect(counts.batchDeletes == 1)
        #expect(counts.sentBack == 0)
        #expect(counts.rowSaves == saves)
        #expect(try ModelContext(container).fetch(FetchDescriptor<RowTask>()).map(\.title) == ["a", "c"])
    }
}
