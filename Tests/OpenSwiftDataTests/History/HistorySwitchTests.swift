import Foundation
import OpenSwiftData
import Synchronization
import Testing

/// `ModelConfiguration.keepsHistory` off: saves and batch deletes record nothing, and the history
/// is refused rather than answered with what an earlier configuration recorded.
@Suite struct HistorySwitchTests {
    private let schema = Schema([HistoryTrip.self, HistoryAccommodation.self])

    private func configuration(_ url: URL, keepsHistory: Bool) -> ModelConfiguration {
        var configuration = ModelConfiguration(url: url)
        configuration.keepsHistory = keepsHistory
        return configuration
    }

    @Test func aStoreWithoutHistorySavesAndRefusesToReadHistory() throws {
        let url = ScratchFiles.store("history-off")
        let context = ModelContext(try ModelContainer(for: schema, configurations: configuration(url, keepsHistory: false)))
        try saveEach(["Paris", "Kyoto"], in: context)
        #expect(try context.fetch(FetchDescriptor<HistoryTrip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Kyoto", "Paris"])
        let error = try #require(throws: PersistenceError.self) { try history(context) }
        #expect(error.code == .unavailable)
        let name = url.deletingPathExtension().lastPathComponent
        #expect(error.message == "The store '\(name)' keeps no history; open it with a ModelConfiguration whose keepsHistory is true.")
        #expect(throws: PersistenceError.self) { try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
    }

    @Test func savesWithoutHistoryLeaveNoTransactionsForALaterConfiguration() throws {
        let url = ScratchFiles.store("history-off-then-on")
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: configuration(url, keepsHistory: true)))
            try saveEach(["Paris"], in: context)
        }
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: configuration(url, keepsHistory: false)))
            try saveEach(["Kyoto", "Lima"], in: context)
            try context.delete(model: HistoryTrip.self, where: #Predicate { $0.name == "Kyoto" })
        }
        let context = ModelContext(try ModelContainer(for: schema, configurations: configuration(url, keepsHistory: true)))
        #expect(try context.fetchCount(FetchDescriptor<HistoryTrip>()) == 2)
        #expect(try history(context).map(\.transactionIdentifier) == [1])
        try saveEach(["Oslo"], in: context)
        #expect(try history(context).map(\.transactionIdentifier) == [1, 2])
    }

    @Test func aSaveWithoutHistoryPostsNoToken() throws {
        let context = ModelContext(try ModelContainer(for: schema, configurations: configuration(ScratchFiles.store("history-off-token"), keepsHistory: false)))
        context.insert(HistoryTrip(name: "Paris", destination: "France"))
        let keys = Mutex<[[String]]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { notification in
            let saved = (notification.userInfo ?? [:]).keys.compactMap { $0 as? String }.sorted()
            keys.withLock { $0.append(saved) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(keys.withLock { $0 } == [["deletedIdentifiers", "insertedIdentifiers", "updatedIdentifiers"]])
    }
}
