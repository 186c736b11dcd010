import Foundation
@testable import OpenSwiftData
@testable import OpenSwiftDataCore
import Testing

/// Which parts of a history predicate a store runs itself.
@Suite struct HistoryFilterTests {
    private let token = DefaultHistoryToken(storeIdentifier: "S", transactionIdentifier: 7)

    @Test func tokenAuthorAndEntityConditionsAreTheWholePredicate() {
        let token = token
        let names = ["HistoryTrip"]
        let filter = HistoryFilter(#Predicate<DefaultHistoryTransaction> {
            $0.token > token && $0.author == "widget" && $0.changes.contains { names.contains($0.changedPersistentIdentifier.entityName) }
        })
        #expect(filter.isComplete)
        #expect(filter.tokens == [token])
        #expect(filter.conditions.map(String.init(describing:)) == [
            "transaction(\(String(reflecting: HistoryFilter.Comparison.greater)), 7)",
            "author(equal: true, Optional(\"widget\"))",
            "changedEntity(in: Set([\"HistoryTrip\"]))",
        ])
    }

    @Test(arguments: [
        (HistoryFilter.Condition.transaction(.greater, 7), Int64(8)),
        (.transaction(.greaterOrEqual, 7), 7),
        (.transaction(.equal, 7), 7),
        (.transaction(.less, 7), .min),
        (.transaction(.notEqual, 7), .min),
        (.author(equal: true, "app"), .min),
        (.transaction(.greater, .max), .max),
    ])
    func theLowestAdmittedTransactionFollowsTheLowerBounds(condition: HistoryFilter.Condition, lowest: Int64) {
        #expect(HistoryFilter(conditions: [condition], tokens: []).lowestTransaction == lowest)
        #expect(HistoryFilter(conditions: [condition, .transaction(.greater, 9)], tokens: []).lowestTransaction == max(lowest, 10))
    }

    @Test func otherConditionsAreLeftForSwiftAndTheirTokensStillChecked() throws {
        let token = token
        let filter = HistoryFilter(#Predicate<DefaultHistoryTransaction> { $0.author == "app" || $0.token >= token })
        #expect(!filter.isComplete)
        #expect(filter.conditions.isEmpty)
        #expect(filter.tokens == [token])
        #expect(throws: SwiftDataError.historyTokenExpired) { try filter.checkTokens(storeIdentifier: "S", deletedThrough: 8) }
        try filter.checkTokens(storeIdentifier: "S", deletedThrough: 7)
        let error = try #require(throws: PersistenceError.self) { try filter.checkTokens(storeIdentifier: "T", deletedThrough: 0) }
        #expect(error.code == .foreignHistoryToken)
    }

    @Test func aTokenOfSeveralStoresDoesNotDecode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DefaultHistoryToken.self, from: Data(#"{"A":1,"B":2}"#.utf8))
        }
    }
}
