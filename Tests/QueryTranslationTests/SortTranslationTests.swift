import Foundation
import OpenSwiftData
import TestModels
import Testing

@Suite struct SortTranslationTests {
    @Test func translatesKeyPathsAndOrders() throws {
        let keys = try Fixtures.translator.translate([SortDescriptor(\TripRow.name), SortDescriptor(\TripRow.rating, order: .reverse)])
        #expect(keys == [
            QuerySortKey(path: ["name"], ascending: true, kind: .string),
            QuerySortKey(path: ["rating"], ascending: false, kind: .integer),
        ])
    }

    @Test func rendersOrderByWithIdentifierAsLastTieBreaker() throws {
        let keys = [QuerySortKey(path: ["name"], ascending: true, kind: .string), QuerySortKey(path: ["rating"], ascending: false, kind: .integer)]
        #expect(try Fixtures.renderer.render(keys) == #""t"."name" ASC, "t"."rating" DESC, "t"."Z_PK""#)
        #expect(try Fixtures.renderer.render([]) == #""t"."Z_PK""#)
    }

    @Test func stringComparatorSortIsRefused() {
        let error = #expect(throws: QueryTranslationError.self) {
            try Fixtures.translator.translate([SortDescriptor(\TripRow.name, comparator: .lexical)])
        }
        #expect(error?.kind == .unsupportedSort)
        #expect(error?.message == #"A SortDescriptor with a String.StandardComparator (\TripRow.name) is not translated"#)
    }

    @Test func enumerationSortIsRefused() {
        let error = #expect(throws: QueryTranslationError.self) { try Fixtures.translator.translate([SortDescriptor(\TripRow.level)]) }
        #expect(error?.kind == .unsupportedSort)
        #expect(error?.message == "Sorting by values of type Level is not translated")
    }

    @Test func identifierSortIsRefused() {
        let error = #expect(throws: QueryTranslationError.self) { try Fixtures.translator.translate([SortDescriptor(\TripRow.persistentModelID)]) }
        #expect(error?.kind == .unsupportedSort)
        #expect(error?.message == #"Sorting by \TripRow.persistentModelID, which is not a stored attribute, is not translated"#)
    }

    @Test func wholeFetchRendersWhereOrderLimitAndOffset() throws {
        let query = try Fixtures.translator.translate(entityName: "TripRow", predicate: #Predicate<TripRow> { $0.nights > 2 },
                                                      sortBy: [SortDescriptor(\.startDate, order: .reverse)], fetchLimit: 10, fetchOffset: 20)
        #expect(query == DataStoreQuery(entityName: "TripRow",
                                        filter: .comparison(.attribute("nights"), .greaterThan, .integer(2), type: .integer),
                                        sortBy: [QuerySortKey(path: ["startDate"], ascending: false, kind: .date)],
                                        fetchLimit: 10, fetchOffset: 20))
        let clauses = try Fixtures.renderer.render(query)
        #expect(clauses.sql == #"WHERE ("t"."nights" > ?) ORDER BY "t"."startDate" DESC, "t"."Z_PK" LIMIT ? OFFSET ?"#)
        #expect(clauses.arguments == [.integer(2), .integer(10), .integer(20)])
    }

    @Test func offsetWithoutLimitRendersUnlimitedLimit() throws {
        let clauses = try Fixtures.renderer.render(DataStoreQuery(entityName: "TripRow", fetchOffset: 5))
        #expect(clauses.sql == #"ORDER BY "t"."Z_PK" LIMIT -1 OFFSET ?"#)
        #expect(clauses.arguments == [.integer(5)])
    }

    /// Rows in the order `rows.sorted(using:)` gives, and the order `QueryEvaluator.compare` gives.
    @Test func evaluatorOrderMatchesSortDescriptors() throws {
        var generator = SplitMix64(state: 7)
        let rows = (0..<300).map { Int64($0) }.map { RandomRows.make(&generator, key: $0) }
        let descriptorSets: [[SortDescriptor<TripRow>]] = [
            [SortDescriptor(\.name)], [SortDescriptor(\.name, order: .reverse)],
            [SortDescriptor(\.notes), SortDescriptor(\.nights, order: .reverse)],
            [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.budget)],
            [SortDescriptor(\.discount)], [SortDescriptor(\.startDate, order: .reverse)], [SortDescriptor(\.id)],
        ]
        for descriptors in descriptorSets {
            let keys = try Fixtures.translator.translate(descriptors)
            let expected = rows.sorted(using: descriptors).map(\.persistentModelID)
            let actual = try rows.map { row in (row, try keys.map { try row.evaluator.evaluate(.property($0.path)) }) }
                .sorted { lhs, rhs in
                    for (index, key) in keys.enumerated() {
                        let order = QueryEvaluator.compare(lhs.1[index], rhs.1[index], ascending: key.ascending)
                        if order != .orderedSame { return order == .orderedAscending }
                    }
                    return false
                }
                .map(\.0.persistentModelID)
            #expect(actual == expected, "\(keys)")
        }
    }
}
