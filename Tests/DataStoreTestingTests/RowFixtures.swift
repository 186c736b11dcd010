import DataStoreTesting
import OpenSwiftData

/// The notes, tags and tasks the sample row store's suites save, and the store they save them in.
enum RowFixtures {
    static func container(_ name: String, counts: SampleRowStore.Counts = SampleRowStore.Counts(),
                          sendsQueriesBack: Bool) throws -> ModelContainer {
        try ModelContainer(for: Schema([RowNote.self, RowTag.self, RowTask.self]),
                           configurations: [SampleRowStoreConfiguration(name: name, counts: counts, sendsQueriesBack: sendsQueriesBack)])
    }

    /// Groceries (home, weekly), Ideas (later), Trip (home) and Empty, saved in that order.
    @discardableResult
    static func saveNotes(in container: ModelContainer) throws -> [RowNote] {
        let writer = ModelContext(container)
        let notes = [RowNote(title: "Groceries"), RowNote(title: "Ideas"), RowNote(title: "Trip"), RowNote(title: "Empty")]
        notes[0].tags = [RowTag(label: "home"), RowTag(label: "weekly")]
        notes[1].tags = [RowTag(label: "later")]
        notes[2].tags = [RowTag(label: "home")]
        for note in notes { writer.insert(note) }
        try writer.save()
        return notes
    }

    /// Six tasks whose titles and priorities tie in every way a sort can: b2 a1 d3 c1 B2 a3.
    static func saveTasks(in container: ModelContainer) throws {
        let writer = ModelContext(container)
        for (title, priority) in [("b", 2), ("a", 1), ("d", 3), ("c", 1), ("B", 2), ("a", 3)] {
            writer.insert(RowTask(title: title, priority: priority))
        }
        try writer.save()
    }
}
