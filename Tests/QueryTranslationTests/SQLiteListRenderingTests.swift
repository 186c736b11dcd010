import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteListRenderingTests {
    @Test func longListIsBoundAsOneJSONArrayArgument() throws {
        let names = (0...SQLiteDialect().largeListThreshold).map { "city \($0)" }
        let fragment = try Fixtures.render(#Predicate { names.contains($0.destination) })
        #expect(fragment.sql == #"("t"."destination" IN (SELECT value FROM json_each(?)))"#)
        #expect(fragment.arguments == [.array(names.map(QueryValue.string))])
    }

    @Test func listAtTheThresholdKeepsOnePlaceholderPerElement() throws {
        let names = (1...SQLiteDialect().largeListThreshold).map { "city \($0)" }
        let fragment = try Fixtures.render(#Predicate { names.contains($0.destination) })
        #expect(fragment.arguments.count == SQLiteDialect().largeListThreshold)
        #expect(fragment.sql.hasSuffix("?, ?))"))
    }

    @Test func longIdentifierListIsMappedToKeysDroppingOtherStores() throws {
        let ids = (0..<1_100).map { Fixtures.tripID(Int64($0), store: $0.isMultiple(of: 2) ? Fixtures.storeIdentifier : "Other") }
        let fragment = try Fixtures.render(#Predicate { ids.contains($0.persistentModelID) })
        #expect(fragment.sql == #"("t"."Z_PK" IN (SELECT value FROM json_each(?)))"#)
        #expect(fragment.arguments == [.array(stride(from: 0, to: 1_100, by: 2).map { .integer(Int64($0)) })])
    }

    @Test func thresholdCountsTheIdentifiersThatRemain() throws {
        let ids = (0..<4).map { Fixtures.tripID(Int64($0), store: $0 < 2 ? Fixtures.storeIdentifier : "Other") }
        let fragment = try Fixtures.render(#Predicate { ids.contains($0.persistentModelID) })
        #expect(fragment == SQLFragment(#"("t"."Z_PK" IN (?, ?))"#, arguments: [.integer(0), .integer(1)]))
    }

    @Test func identifierOfAnotherStoreMatchesNoRow() throws {
        let other = Fixtures.tripID(1, store: "Other")
        #expect(try Fixtures.render(#Predicate { $0.persistentModelID == other }) == SQLFragment("0"))
        #expect(try Fixtures.render(#Predicate { $0.persistentModelID != other }) == SQLFragment("1"))
    }

    @Test func emptyListMatchesNoRow() throws {
        let none: [String] = []
        #expect(try Fixtures.render(#Predicate { none.contains($0.destination) }) == SQLFragment("0"))
    }

    @Test func optionalElementWithoutNilInListIsNeverNull() throws {
        let notes: [String?] = ["a", "b"]
        let fragment = try Fixtures.render(#Predicate { !notes.contains($0.notes) })
        #expect(fragment.sql == #"(NOT ("t"."notes" IS NOT NULL AND "t"."notes" IN (?, ?)))"#)
        #expect(fragment.arguments == [.string("a"), .string("b")])
    }

    /// NaN is never equal or ordered in Swift; SQLite would bind it as NULL.
    @Test func comparisonsWithNaNAreConstants() throws {
        let nan = Double.nan
        #expect(try Fixtures.render(#Predicate { $0.budget == nan }) == SQLFragment("0"))
        #expect(try Fixtures.render(#Predicate { $0.budget != nan }) == SQLFragment("1"))
        #expect(try Fixtures.render(#Predicate { $0.budget < nan }) == SQLFragment("0"))
        let budgets = [nan, 1.5]
        #expect(try Fixtures.render(#Predicate { budgets.contains($0.budget) }) == SQLFragment(#"("t"."budget" IN (?))"#, arguments: [.double(1.5)]))
    }

    @Test func collectionContainsNilUsesIsNull() throws {
        let tree = QueryExpression.collectionContains(.attribute("tags"), element: .value(.null), type: .optionalString)
        #expect(try Fixtures.renderer.render(tree) == SQLFragment(#"EXISTS (SELECT 1 FROM json_each("t"."tags") WHERE value IS NULL)"#))
    }

    @Test func capturedListInCollectionTestIsBoundAsJSON() throws {
        let names = ["a", "b"]
        let fragment = try Fixtures.render(#Predicate { $0.tags.contains { names.contains($0) } })
        #expect(fragment.sql == #"EXISTS (SELECT 1 FROM json_each("t"."tags") AS j1 WHERE (j1.value IN (?, ?)))"#)
        #expect(fragment.arguments == [.string("a"), .string("b")])
    }
}
