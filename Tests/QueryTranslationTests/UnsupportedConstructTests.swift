import Foundation
import OpenSwiftData
import Testing

/// A construct with no exact store-neutral form, and the message naming it.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var predicate: Predicate<TripRow>
    var message: String

    init(_ name: String, _ predicate: Predicate<TripRow>, _ message: String) {
        self.name = name
        self.predicate = predicate
        self.message = message
    }

    var testDescription: String { name }
}

@Suite struct UnsupportedConstructTests {
    static var translatorRefusals: [Refusal] {
        let low = Level.low
        let big = UInt64.max
        return [
            Refusal("filter", #Predicate { $0.tags.filter { $0 == "a" }.isEmpty }, "PredicateExpressions.Filter is not translated"),
            Refusal("subscript", #Predicate { $0.tags[0] == "a" }, "PredicateExpressions.CollectionIndexSubscript is not translated"),
            Refusal("max", #Predicate { $0.tags.max() == "z" }, "PredicateExpressions.SequenceMaximum is not translated"),
            Refusal("first", #Predicate { $0.tags.first == "a" }, "Key paths on Array other than count and isEmpty are not translated"),
            Refusal("Float arithmetic", #Predicate { $0.float * 2 > 1 }, "Arithmetic on Float is not translated"),
            Refusal("ordering an enumeration", #Predicate { $0.level < low }, "Ordering values of type Level is not translated"),
            Refusal("UInt64 beyond Int64", #Predicate { $0.unsigned == big }, "Captured values of type UInt64 are not translated"),
            Refusal("property outside the schema", #Predicate { $0.scratch == "x" }, #"The key path \TripRow.scratch is not a stored property"#),
            Refusal("range built in the predicate", #Predicate { ($0.nights..<10).contains(3) }, "PredicateExpressions.Range is not translated"),
            Refusal("starts(with:) on an array", #Predicate { $0.tags.starts(with: ["a"]) }, "starts(with:) on Array is not translated"),
        ]
    }

    @Test(arguments: translatorRefusals)
    func translatorThrowsUnsupportedPredicateNamingTheConstruct(_ refusal: Refusal) {
        let error = #expect(throws: QueryTranslationError.self) { try Fixtures.translator.translate(refusal.predicate) }
        #expect(error?.kind == .unsupportedPredicate)
        #expect(error?.message == refusal.message)
    }

    static var rendererRefusals: [Refusal] {
        let five = Fixtures.tripID(5)
        let place = Fixtures.placeID(1)
        let nan = Double.nan
        return [
            Refusal("path through a relationship", #Predicate { $0.place?.name == "Oslo" }, "place.name needs a join"),
            Refusal("whole collections", #Predicate { $0.tags == ["a"] }, "Comparing whole collections is not rendered"),
            Refusal("ordered identifiers", #Predicate { $0.persistentModelID < five }, "Ordering identifiers is not rendered"),
            Refusal("relationship identifier", #Predicate { $0.place?.persistentModelID == place }, "Comparing relationships with identifiers is not rendered yet"),
            Refusal("NaN in arithmetic", #Predicate { $0.budget + nan > 0 }, "NaN outside a comparison is not rendered (SQLite stores NaN as NULL)"),
        ]
    }

    @Test(arguments: rendererRefusals)
    func sqliteRendererThrowsUnsupportedPredicate(_ refusal: Refusal) throws {
        let tree = try Fixtures.translator.translate(refusal.predicate)
        let error = #expect(throws: QueryTranslationError.self) { try Fixtures.renderer.render(tree) }
        #expect(error?.kind == .unsupportedPredicate)
        #expect(error?.message == refusal.message)
    }

    @Test func descriptionTellsTheStoreWhatToThrow() {
        let error = QueryTranslationError(.unsupportedPredicate, "PredicateExpressions.Filter is not translated")
        #expect(error.description == "PredicateExpressions.Filter is not translated; filter in memory (DataStoreError.preferInMemoryFilter)")
        let sortError = QueryTranslationError(.unsupportedSort, "Sorting by values of type Level is not translated")
        #expect(sortError.description == "Sorting by values of type Level is not translated; sort in memory (DataStoreError.preferInMemorySort)")
    }
}
