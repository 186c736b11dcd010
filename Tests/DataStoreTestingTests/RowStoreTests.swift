import DataStoreTesting
import Foundation
import OpenSwiftData
import Testing

// Local: the row layout test lists these properties, the optional Bool among them, in order.
@Model final class RowNote {
    var title: String
    var pinned: Bool?
    var tags: [RowTag] = []
    init(title: String, pinned: Bool? = nil) {
        self.title = title
        self.pinned = pinned
    }
}

@Model final class RowTag {
    var label: String
    @Relationship(inverse: \RowNote.tags) var note: RowNote?
    init(label: String) { self.label = label }
}

/// A store written outside the library that adopts `DataStoreRowAccess`: it passes the kit, and
/// contexts reach it through rows alone.
@Suite struct RowStoreTests {
    static let kit = DataStoreConformance(capabilities: [.erase, .batchDelete]) { schema, _ in
        SampleRowStoreConfiguration(name: "conformance", schema: schema)
    }

    @Test(arguments: DataStoreConformance.checks)
    func aCustomRowStore(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.kit)
    }

    @Test func contextsFetchAndSaveThroughRowsOnly() throws {
        let counts = SampleRowStore.Counts()
        let container = try ModelContainer(for: Schema([RowNote.self, RowTag.self]),
                                           configurations: [SampleRowStoreConfiguration(name: "rows", counts: counts)])
        let writer = ModelContext(container)
        let note = RowNote(title: "Groceries", pinned: true)
        note.tags = [RowTag(label: "home"), RowTag(label: "weekly")]
        writer.insert(note)
        writer.insert(RowNote(title: "Ideas"))
        try writer.save()
        #expect(note.persistentModelID.storeIdentifier?.hasPrefix("SampleRowStore-") == true)
        // One save: the store rewrites the references between the inserted models itself
        // (`DataStoreRemapping`), so the context sends no follow-up.
        #expect(counts.rowSaves == 1)

        let reader = ModelContext(container)
        let notes = try reader.fetch(FetchDescriptor<RowNote>())
        #expect(counts.rowFetches == 1)
        #expect(notes.map(\.title) == ["Groceries", "Ideas"])
        #expect(notes.map(\.pinned) == [true, nil])
        #expect(notes[0].tags.map(\.label).sorted() == ["home", "weekly"])
        #expect(notes[0].tags.allSatisfy { $0.note === notes[0] })
        #expect(notes[1].tags.isEmpty)
        #expect(counts.fetches == 0)
        #expect(counts.saves == 0)
    }

    static let keepingTemporaryReferences = DataStoreConformance(capabilities: [.erase, .batchDelete]) { schema, _ in
        SampleRowStoreConfiguration(name: "temporary-references", schema: schema, fault: .keepsTemporaryReferences)
    }

    @Test func theKitCatchesAStoreThatPromisesRemappingAndKeepsTemporaryReferences() throws {
        let check = try #require(DataStoreConformance.checks.first { $0.name == "aGraphOfModelsRoundTripsThroughSaveAndFetch" })
        withKnownIssue("the broken store keeps the temporary identifiers of models inserted together") {
            try check.run(Self.keepingTemporaryReferences)
        }
    }

    // Also the kit's run of the context's side of sent-back queries: the other run's store
    // answers them with `SnapshotQueryEngine`.
    static let deferringKit = DataStoreConformance(capabilities: [.erase, .batchDelete]) { schema, _ in
        SampleRowStoreConfiguration(name: "conformance-deferring", schema: schema, defersToMany: true, sendsQueriesBack: true)
    }

    @Test(arguments: DataStoreConformance.checks)
    func aCustomRowStoreDeferringToManyReadsAndSendingQueriesBack(_ check: DataStoreConformance.Check) throws {
        try check.run(Self.deferringKit)
    }

    @Test func aDeferredToManyIsReadOnceForTheWholeFetchWhenFirstRead() throws {
        let counts = SampleRowStore.Counts()
        let container = try ModelContainer(for: Schema([RowNote.self, RowTag.self]),
                                           configurations: [SampleRowStoreConfiguration(name: "deferred", counts: counts, defersToMany: true)])
        let writer = ModelContext(container)
        let groceries = RowNote(title: "Groceries"), ideas = RowNote(title: "Ideas")
        groceries.tags = [RowTag(label: "home"), RowTag(label: "weekly")]
        ideas.tags = [RowTag(label: "later")]
        writer.insert(groceries)
        writer.insert(ideas)
        writer.insert(RowNote(title: "Empty"))
        try writer.save()

        let reader = ModelContext(container)
        let notes = try reader.fetch(FetchDescriptor<RowNote>())
        #expect(notes.map(\.title) == ["Groceries", "Ideas", "Empty"])
        #expect(counts.toManyLoads == 0)
        #expect(notes[0].tags.map(\.label).sorted() == ["home", "weekly"])
        #expect(counts.toManyLoads == 1)
        #expect(notes[1].tags.map(\.label) == ["later"])
        #expect(notes[2].tags.isEmpty)
        #expect(counts.toManyLoads == 1)
        #expect(notes[1].tags.allSatisfy { $0.note === notes[1] })
    }

    @Test func aRowWithTooFewValuesFailsTheFetchWithAnError() throws {
        let container = try ModelContainer(for: Schema([RowNote.self, RowTag.self]),
                                           configurations: [SampleRowStoreConfiguration(name: "short", fault: .shortRows)])
        let writer = ModelContext(container)
        writer.insert(RowNote(title: "Groceries"))
        try writer.save()
        let error = #expect(throws: PersistenceError.self) { try ModelContext(container).fetch(FetchDescriptor<RowNote>()) }
        #expect(error?.code == .invalidSnapshot)
    }

    @Test func aSaveAnsweredWithTooFewIdentifiersFailsWithAnError() throws {
        let container = try ModelContainer(for: Schema([RowNote.self, RowTag.self]),
                                           configurations: [SampleRowStoreConfiguration(name: "missing", fault: .missingIdentifier)])
        let writer = ModelContext(container)
        writer.insert(RowNote(title: "Groceries"))
        let error = #expect(throws: PersistenceError.self) { try writer.save() }
        #expect(error?.code == .invalidIdentifier)
        #expect(writer.hasChanges)
    }

    @Test func rowLayoutListsPersistedPropertiesInDeclarationOrder() throws {
        let layout = DataStoreRowLayout(for: RowNote.self)
        #expect(layout.entityName == "RowNote")
        #expect(layout.propertyNames == ["title", "pinned", "tags"])
        #expect(layout.index(ofProperty: "tags") == 2)
        #expect(layout.index(ofProperty: "missing") == nil)
        #expect(DataStoreRowLayout(entityName: "NoSuchEntity") == nil)
    }
}

@Model final class RowTask {
    var title: String
    var priority: Int
    init(title: String, priority: Int) {
        self.title = title
        self.priority = priority
    }
}

/// A predicate or sort a custom store sends back is applied to its rows before models are built.
@Suite struct StoreFilterTests {
    private func container() throws -> ModelContainer {
        try RowFixtures.container("filtered", sendsQueriesBack: true)
    }

    @Test func onlyTheRowsAnAttributePredicateKeepsBecomeModels() throws {
        let container = try container()
        let writer = ModelContext(container)
        let notes = [RowNote(title: "a", pinned: true), RowNote(title: "b"), RowNote(title: "c", pinned: false), RowNote(title: "d", pinned: true)]
        for note in notes { writer.insert(note) }
        try writer.save()

        let reader = ModelContext(container)
        let pinned = try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.pinned == true && $0.title != "d" }))
        #expect(pinned.map(\.title) == ["a"])
        let registered = notes.map { (reader.registeredModel(for: $0.persistentModelID) as RowNote?)?.title }
        #expect(registered == ["a", nil, nil, nil])
    }

    /// Sent back, the context orders the rows; run in the store, `SnapshotQueryEngine` does.
    @Test(arguments: [true, false])
    func aSortOrdersTheRowsAsSwiftWould(sendsQueriesBack: Bool) throws {
        let counts = SampleRowStore.Counts()
        let container = try RowFixtures.container("sorted", counts: counts, sendsQueriesBack: sendsQueriesBack)
        try RowFixtures.saveTasks(in: container)

        let reader = ModelContext(container)
        // By number: ordered from the rows, ties kept in the order they were saved.
        let urgent = try reader.fetch(FetchDescriptor<RowTask>(sortBy: [SortDescriptor(\.priority, order: .reverse)]))
        #expect(urgent.map { "\($0.title)\($0.priority)" } == ["d3", "a3", "b2", "B2", "a1", "c1"])
        var page = FetchDescriptor<RowTask>(predicate: #Predicate { $0.priority < 3 }, sortBy: [SortDescriptor(\.priority), SortDescriptor(\.title)])
        page.fetchOffset = 1
        page.fetchLimit = 2
        #expect(try reader.fetch(page).map(\.title) == ["c", "B"])
        // By string: the models are sorted by the descriptor's comparator, as before.
        #expect(try reader.fetch(FetchDescriptor<RowTask>(sortBy: [SortDescriptor(\.title, order: .reverse)])).map(\.title) == ["d", "c", "b", "a", "a", "B"])
        // Sent back: each sort, and the page's filter and then its sort, as the context asks again.
        #expect(counts.sentBack == (sendsQueriesBack ? 4 : 0))
    }

    @Test func aRelationshipPredicateAndPendingChangesStillDecideBySwift() throws {
        let container = try container()
        let writer = ModelContext(container)
        let groceries = RowNote(title: "Groceries")
        groceries.tags = [RowTag(label: "home")]
        writer.insert(groceries)
        writer.insert(RowNote(title: "Ideas"))
        try writer.save()

        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.tags.contains { $0.label == "home" } })).map(\.title) == ["Groceries"])
        // A changed model is matched by its unsaved values, not by its stored row.
        let ideas = try #require(try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.title == "Ideas" })).first)
        ideas.title = "Plans"
        #expect(try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.title == "Plans" })).map(\.title) == ["Plans"])
        #expect(try reader.fetch(FetchDescriptor<RowNote>(predicate: #Predicate { $0.title == "Ideas" })).isEmpty)
    }
}
