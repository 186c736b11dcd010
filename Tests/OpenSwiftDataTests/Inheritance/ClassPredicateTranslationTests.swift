import Foundation
import OpenSwiftData
import Testing

/// `is` and `as?` in predicates as the store-neutral query tree has them, and as the evaluator of
/// snapshot stores answers them.
@Suite struct ClassPredicateTranslationTests {
    private let translator: QueryTranslator = {
        _ = Schema(vehicleTypes)
        return ModelQueryResolution.translator(for: Car.self)
    }()

    @Test func isBecomesATestOfTheFetchedModelsEntity() throws {
        #expect(try translator.translate(#Predicate<Vehicle> { $0 is Car }) == .isEntity(.identifier, entityName: "Car"))
        #expect(try translator.translate(#Predicate<Vehicle> { !($0 is Car) }) == .not(.isEntity(.identifier, entityName: "Car")))
    }

    @Test func asReadsTheSubclassPropertyOnlyForTheSubclassModels() throws {
        let tree = try translator.translate(#Predicate<Vehicle> { (($0 as? Car)?.seats ?? 0) > 2 })
        let seats = QueryExpression.conditional(.isEntity(.identifier, entityName: "Car"), then: .property(["seats"]), else: .value(.null))
        #expect(tree == .comparison(.coalesce(seats, default: .value(.integer(0))), .greaterThan, .value(.integer(2)), type: QueryValueType(.integer)))
    }

    @Test func aCastOfARelatedModelIsLeftToTheContext() {
        #expect(throws: QueryTranslationError.self) {
            try translator.translate(#Predicate<Driver> { $0.favourite is Car })
        }
    }

    @Test(arguments: [("Vehicle", "Vehicle", true), ("Car", "Vehicle", true), ("Car", "Car", true),
                      ("Vehicle", "Car", false), ("Truck", "Car", false)])
    func theEvaluatorAnswersIsByTheClassHierarchy(_ entity: String, _ ancestor: String, _ expected: Bool) throws {
        _ = Schema(vehicleTypes)
        let identifier = try PersistentIdentifier.identifier(for: "store", entityName: entity, primaryKey: Int64(1))
        let evaluator = QueryEvaluator(identifier: identifier) { _ in .null }
        #expect(try evaluator.matches(.isEntity(.identifier, entityName: ancestor)) == expected)
    }
}
