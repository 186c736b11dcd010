import Foundation
import OpenSwiftData
import Testing

/// `#Predicate` builds these three through `PredicateExpressions.build_…`, which Foundation on
/// Linux lacks; they must evaluate as the `String` methods do.
@Suite struct StringComparisonExpressionTests {
    @Test(arguments: ["Café", "CAFE", "caf", "Bar", ""])
    func localizedStandardContainsEvaluatesLikeTheStringMethod(_ name: String) throws {
        let predicate = #Predicate<TripRow> { $0.name.localizedStandardContains("cafe") }
        #expect(try predicate.evaluate(TripRow(name: name)) == name.localizedStandardContains("cafe"))
    }

    @Test(arguments: ["apple", "Banana", "banana", "cherry", "É"])
    func comparisonsEvaluateLikeTheStringMethods(_ name: String) throws {
        let ascending = ComparisonResult.orderedAscending
        let caseInsensitive = #Predicate<TripRow> { $0.name.caseInsensitiveCompare("BANANA") == ascending }
        let localized = #Predicate<TripRow> { $0.name.localizedCompare("banana") == ascending }
        #expect(try caseInsensitive.evaluate(TripRow(name: name)) == (name.caseInsensitiveCompare("BANANA") == .orderedAscending))
        #expect(try localized.evaluate(TripRow(name: name)) == (name.localizedCompare("banana") == .orderedAscending))
    }

    @Test func expressionsRoundTripThroughCodable() throws {
        let contains = PredicateExpressions.build_localizedStandardContains(PredicateExpressions.Value("Crème"), PredicateExpressions.Value("CREME"))
        let decoded = try JSONDecoder().decode(type(of: contains), from: JSONEncoder().encode(contains))
        #expect(try decoded.evaluate(PredicateBindings()) == true)
        let compare = PredicateExpressions.build_caseInsensitiveCompare(PredicateExpressions.Value("a"), PredicateExpressions.Value("B"))
        #expect(try JSONDecoder().decode(type(of: compare), from: JSONEncoder().encode(compare)).evaluate(PredicateBindings()) == .orderedAscending)
    }
}
