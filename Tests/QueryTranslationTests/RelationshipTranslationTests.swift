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

    @Test func containsWhereOnAToManyRelationshipReadsEachRelatedModel() throws {
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.places.contains { $0.name == "Oslo" } })
        #expect(tree == .collectionAny(.property(["places"]), variable: 1,
                                       test: .comparison(.elementProperty(1, ["name"]), .equal, .string("Oslo"), type: .string)))
    }

    @Test func allSatisfyOnAToManyRelationshipComparesRelatedIdentifiers() throws {
        let place = Fixtures.placeID(1)
        let tree = try Fixtures.translator.translate(#Predicate<TripRow> { $0.places.allSatisfy { $0.persistentModelID == place } })
        #expect(tree == .collectionAll(.property(["places"]), variable: 1,
                                       test: .comparison(.variable(1), .equal, .value(.identifier(place)), type: QueryValueType(.identifier))))
    }

    @Test func evaluatorReadsPropertiesOfRelatedModelsThroughItsElementReader() throws {
        let filter = QueryExpression.collectionAny(.property(["places"]), variable: 1,
                                                   test: .comparison(.elementProperty(1, ["name"]), .equal, .string("Oslo"), type: .string))
        let names = [Fixtures.placeID(1): "Rome", Fixtures.placeID(2): "Oslo"]
        for places in [[Fixtures.placeID(1)], [Fixtures.placeID(1), Fixtures.placeID(2)], []] {
            let evaluator = QueryEvaluator(identifier: Fixtures.tripID(1), property: { _ in .array(places.map(QueryValue.identifier)) },
                                           elementProperty: { id, _ in .string(names[id]!) })
            #expect(try evaluator.matches(filter) == places.contains(Fixtures.placeID(2)))
        }
        #expect(throws: QueryEvaluationError.self) {
            try QueryEvaluator(identifier: Fixtures.tripID(1)) { _ in .array([.identifier(Fixtures.placeID(1))]) }.matches(filter)
        }
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
