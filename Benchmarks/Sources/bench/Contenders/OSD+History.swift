import Foundation
import JSONStore
import OpenSwiftData

/// The simple workload's insert on a store with history on or off.
final class OSDHistoryInsert: HistoryInsertSubject {
    private let context: ModelContext

    init(_ store: OSDStore, _ directory: ScratchDirectory, keepsHistory: Bool) throws {
        let schema = Schema([User.self])
        let container: ModelContainer
        switch store {
        case .sqlite:
            var configuration = ModelConfiguration(url: directory.file("osd.store"))
            configuration.keepsHistory = keepsHistory
            container = try ModelContainer(for: schema, configurations: [configuration])
        case .json:
            container = try ModelContainer(for: schema, configurations: [
                JSONStoreConfiguration(name: "bench", schema: schema, url: directory.file("osd.json"), outputFormatting: .compact, keepsHistory: keepsHistory),
            ])
        case .inMemory, .sampleRows:
            throw UsageError("history-insert runs osd and osd-json: InMemoryStore always keeps history, SampleRowStore none")
        }
        context = ModelContext(container)
    }

    func insert(_ users: [UserRow]) throws -> Int {
        for row in users { context.insert(User(row)) }
        try context.save()
        return try context.fetchCount(FetchDescriptor<User>())
    }
}

/// A history of one-user saves, read after tokens near its end.
final class OSDHistoryFetch: HistoryFetchSubject {
    private let context: ModelContext
    /// The newest transactions' tokens, newest first.
    private var tokens: [DefaultHistoryToken] = []

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        let schema = Schema([User.self])
        switch store {
        case .sqlite:
            var configuration = ModelConfiguration(url: directory.file("osd.store"))
            configuration.historyRetention = .unlimited
            context = ModelContext(try ModelContainer(for: schema, configurations: [configuration]))
        case .inMemory:
            context = ModelContext(try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()]))
        case .json, .sampleRows:
            throw UsageError("history-fetch runs osd and osd-memory: JSONStore rewrites its file on each of the 100,000 saves, SampleRowStore keeps no history")
        }
    }

    func record(_ count: Int) throws {
        for row in UserRow.generate(count) {
            context.insert(User(row))
            try context.save()
        }
        var newest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newest.fetchLimit = UInt64(2 * HistoryBench.fetchesPerRun + 1)
        tokens = try context.fetchHistory(newest).map(\.token)
    }

    func changes(after back: Int) throws -> Int {
        let token = tokens[back]
        return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
            .reduce(0) { $0 + $1.changes.count }
    }
}
