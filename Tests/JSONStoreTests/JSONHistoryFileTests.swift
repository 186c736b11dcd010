import Foundation
import JSONStore
import OpenSwiftData
import Testing

/// A JSON store's history lives in its file, written with the data.
@Suite struct JSONHistoryFileTests {
    private func url() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("json-history-\(UUID().uuidString).json")
    }

    @Test func historyIsTheFilesLastElementAndSurvivesReopening() throws {
        let file = url()
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = JSONStoreConfiguration(name: "notes", url: file, keepsHistory: true)
        do {
            let context = ModelContext(try ModelContainer(for: Schema([HistoryNote.self]), configurations: [configuration]))
            context.author = "writer"
            let note = HistoryNote(title: "a")
            context.insert(note)
            try context.save()
            context.delete(note)
            try context.save()
        }
        let elements = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        #expect(elements.count == 2)
        #expect(elements.first?["history"] != nil, "last before the checksum")
        #expect(elements.last?["crc32c"] != nil)

        let reopened = ModelContext(try ModelContainer(for: Schema([HistoryNote.self]), configurations: [configuration]))
        let transactions = try reopened.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions.map(\.transactionIdentifier) == [1, 2])
        #expect(transactions.map(\.author) == ["writer", "writer"])
        guard case .delete(let delete as DefaultHistoryDelete<HistoryNote>)? = transactions.last?.changes.first else {
            Issue.record("the second transaction is not the note's delete")
            return
        }
        #expect(delete.tombstone[\.title] as? String == "a")
    }

    @Test func withoutHistoryTheFileStaysAnArrayOfSnapshots() throws {
        let file = url()
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = JSONStoreConfiguration(name: "notes", url: file)
        configuration.writesChecksum = false
        let context = ModelContext(try ModelContainer(for: Schema([HistoryNote.self]), configurations: [configuration]))
        context.insert(HistoryNote(title: "a"))
        try context.save()
        _ = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: file))
        let error = try #require(throws: PersistenceError.self) { try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        #expect(error.code == .unavailable)
    }

    @Test func theHistoryLimitKeepsTheNewestTransactions() throws {
        let file = url()
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = JSONStoreConfiguration(name: "notes", url: file, keepsHistory: true, historyLimit: 2)
        let context = ModelContext(try ModelContainer(for: Schema([HistoryNote.self]), configurations: [configuration]))
        for title in ["a", "b", "c"] {
            context.insert(HistoryNote(title: title))
            try context.save()
        }
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.transactionIdentifier) == [2, 3])
    }
}

@Model final class HistoryNote {
    @Attribute(.preserveValueOnDeletion) var title: String

    init(title: String) {
        self.title = title
    }
}
