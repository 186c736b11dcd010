import Foundation
import OpenSwiftData
import Testing

/// The default store keeps its history within its configuration's `historyRetention`.
@Suite struct HistoryRetentionTests {
    private func container(_ retention: HistoryRetention) throws -> ModelContainer {
        var configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        configuration.historyRetention = retention
        return try ModelContainer(for: Schema([HistoryTrip.self, HistoryAccommodation.self]), configurations: configuration)
    }

    @Test func aCountBoundKeepsTheNewestTransactionsAndExpiresOlderTokens() throws {
        let context = ModelContext(try container(HistoryRetention(maximumTransactionCount: 3)))
        try saveEach(["a"], in: context)
        let first = try #require(try history(context).first?.token)
        try saveEach(["b", "c", "d", "e", "f", "g", "h", "i", "j"], in: context)

        #expect(try history(context).map(\.transactionIdentifier) == [8, 9, 10])
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: first) }
    }

    @Test func anAgeBoundDeletesOlderTransactionsEvery64thTransaction() throws {
        let context = ModelContext(try container(HistoryRetention(maximumAge: .seconds(1))))
        try saveEach(["old"], in: context)
        Thread.sleep(forTimeInterval: 1.2)
        try saveEach((2...63).map { "t\($0)" }, in: context)
        #expect(try history(context).count == 63)

        try saveEach(["t64"], in: context)
        let kept = try history(context).map(\.transactionIdentifier)
        #expect(kept == Array(2...64))
    }

    @Test func theDefaultBoundIsAHundredThousandTransactionsOrThirtyDays() {
        #expect(ModelConfiguration(isStoredInMemoryOnly: true).historyRetention == .default)
        #expect(HistoryRetention.default.maximumTransactionCount == 100_000)
        #expect(HistoryRetention.default.maximumAge == .seconds(30 * 86_400))
        #expect(HistoryRetention.unlimited.maximumTransactionCount == nil && HistoryRetention.unlimited.maximumAge == nil)
    }
}
