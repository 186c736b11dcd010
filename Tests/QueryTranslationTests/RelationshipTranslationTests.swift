import Foundation
import OpenSwiftData
import Testing

@Suite struct RelationshipTranslationTests {
    @Test func optionalChainThroughToOneRelationshipIsAPropertyPath() throws {
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.place?.name == "Oslo" })
        #expect(tree == .comparison(.property(["place", "name"]), .equal, .string("Oslo"), type: .optionalString))
    }

    @Test func forceUnwrappedRelationshipIsAPropertyPath() throws {
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.place!.name == "Oslo" })
        #expect(tree == .comparison(.property(["place", "name"]), .equal, .string("Oslo"), type: .string))
    }

    @Test func relatedIdentifierIsTheRelationshipItself() throws {
        let place = Fixtures.placeID(1)
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.place?.persistentModelID == place })
        #expect(tree == .comparison(.attribute("place"), .equal, .value(.identifier(place)), type: QueryValueType(.identifier, isOptional: true)))
    }

    @Test func valueComputedFromOptionalRelationshipIsNilWhenRelationshipIsNil() throws {
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.place.flatMap { $0.name.count } == 4 })
        let placeIsNil = QueryExpression.comparison(.attribute("place"), .equal, .value(.null), type: QueryValueType(.identifier, isOptional: true))
        #expect(tree == .comparison(.conditional(placeIsNil, then: .value(.null), else: .count(.property(["place", "name"]), of: .string)),
                                    .equal, .integer(4), type: .optionalInteger))
    }

    @Test func evaluatorReadsPathsThroughRelationships() throws {
        let predicate = #Predicate<TripRow> { $0.place?.name == "Oslo" }
        let filter = try Fixtures.translator.translate(predicate)
        for place in [nil, PlaceRow(persistentModelID: Fixtures.placeID(1), name: "Oslo"), PlaceRow(persistentModelID: Fixtures.placeID(2), name: "Rome")] {
            let row = TripRow(place: place)
            #expect(try row.evaluator.matches(filter) == predicate.evaluate(row))
        }
    }
}
