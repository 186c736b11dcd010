import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing

/// History on PostgreSQL beyond the kit's checks: what the database shares between stores, and
/// what it deletes.
@Suite struct PostgresHistoryTests {
    private func container(_ url: String, retention: HistoryRetention = .default) throws -> ModelContainer {
        var configuration = try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url)
        configuration.historyRetention = retention
        return try ModelContainer(for: PGTicket.self, configurations: configuration)
    }

    private func saveTickets(_ codes: [String], in context: ModelContext) throws {
        for code in codes {
            context.insert(PGTicket(code: code, seats: 1))
            try context.save()
        }
    }

    private func history(_ context: ModelContext, after token: DefaultHistoryToken? = nil) throws -> [DefaultHistoryTransaction] {
        guard let token else { return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
    }

    @Test func anotherStoreOnTheDatabaseReadsTheHistoryAfterAToken() throws {
        let url = try TestDatabase.makeDatabase()
        let writer = ModelContext(try container(url))
        writer.author = "box office"
        try saveTickets(["A1", "A2"], in: writer)
        let reader = ModelContext(try container(url))
        let all = try history(reader)
        #expect(all.map(\.author) == ["box office", "box office"])
        let after = try history(reader, after: try #require(all.first?.token))
        #expect(after.flatMap(\.changes).map(\.changedPersistentIdentifier) == (try writer.fetch(FetchDescriptor<PGTicket>(predicate: #Predicate { $0.code == "A2" }))).map(\.persistentModelID))
    }

    @Test func deletedHistoryExpiresItsTokensAndItsNumbersAreNeverReused() throws {
        let context = ModelContext(try container(try TestDatabase.makeDatabase()))
        try saveTickets(["B1", "B2", "B3"], in: context)
        let before = try history(context)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try history(context).isEmpty)
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: before[0].token) }
        try saveTickets(["B4"], in: context)
        let next = try #require(try history(context).first)
        #expect(next.transactionIdentifier > before[2].transactionIdentifier)
    }

    @Test func retentionKeepsTheNewestTransactionsAndExpiresOlderTokens() throws {
        let context = ModelContext(try container(try TestDatabase.makeDatabase(), retention: HistoryRetention(maximumTransactionCount: 2)))
        try saveTickets(["C1", "C2"], in: context)
        let first = try #require(try history(context).first?.token)
        try saveTickets(["C3", "C4"], in: context)
        #expect(try history(context).count == 2)
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: first) }
    }

    /// Two containers on one database stand for two processes: the observer learns of the
    /// other's save only through the database's history.
    @MainActor @Test func aResultsObserverSeesAnotherStoresSave() async throws {
        let url = try TestDatabase.makeDatabase()
        let observer = try ResultsObserver<PGTicket, Never>(modelContainer: try container(url))
        #expect(observer.results.isEmpty)
        let writer = ModelContext(try container(url))
        writer.insert(PGTicket(code: "E1", seats: 1))
        try writer.save()
        // A liveness bound, not a speed check: the observer polls history twice a second.
        for _ in 0..<60 where observer.results.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(observer.results.map(\.code) == ["E1"])
    }

    @Test func aStoreAnnouncesTheSavesOfAnotherStoreOnTheDatabase() throws {
        let url = try TestDatabase.makeDatabase()
        let listening = try PostgresStore(try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url))
        let heard = Mutex(0)
        let announcements = listening.announceHistory { heard.withLock { $0 += 1 } }
        try saveTickets(["F1", "F2"], in: ModelContext(try container(url)))
        for _ in 0..<100 where heard.withLock({ $0 }) < 2 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(heard.withLock { $0 } == 2)
        withExtendedLifetime(announcements) {}
    }

    @Test func aBatchDeleteIsOneTransactionOfOneDeletePerModel() throws {
        let context = ModelContext(try container(try TestDatabase.makeDatabase()))
        try saveTickets(["D1", "D2", "D3"], in: context)
        let doomed = try context.fetch(FetchDescriptor<PGTicket>(predicate: #Predicate { $0.code != "D2" }, sortBy: [SortDescriptor(\.code)]))
        context.author = "cleanup"
        try context.delete(model: PGTicket.self, where: #Predicate { $0.code != "D2" })
        let last = try #require(try history(context).last)
        #expect(last.author == "cleanup")
        let deletes = last.changes.compactMap { change -> PersistentIdentifier? in
            guard case .delete(let delete) = change else { return nil }
            return delete.changedPersistentIdentifier
        }
        #expect(deletes == doomed.map(\.persistentModelID))
    }
}
