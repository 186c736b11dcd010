import Foundation
import OpenSwiftData
import TestModels
import Testing

@Suite struct DifferentialTests {
    /// Every translated predicate must give, on every row, what `Predicate.evaluate` gives on the
    /// object: the same Bool, or an error where Swift throws.
    @Test func evaluatorAgreesWithPredicateEvaluateOnRandomPredicatesAndRows() throws {
        var generator = SplitMix64(state: 0x05D_2026)
        let rows = (0..<64).map { RandomRows.make(&generator, key: Int64($0 % 8)) }
        let rounds = 60
        var predicates = 0
        var outcomes: [String: Int] = [:]
        var disagreements: [String] = []
        for round in 0..<rounds {
            for (index, template) in DifferentialTemplates.all.enumerated() {
                let predicate = template(&generator)
                let filter = try Fixtures.translator.translate(predicate)
                predicates += 1
                for (rowIndex, row) in rows.enumerated() {
                    let expected = Result { try predicate.evaluate(row) }
                    let actual = Result { try row.evaluator.matches(filter) }
                    outcomes[(try? expected.get()).map { "\($0)" } ?? "throws", default: 0] += 1
                    switch (expected, actual) {
                    case let (.success(swift), .success(evaluator)) where swift == evaluator: continue
                    case (.failure, .failure): continue
                    default: disagreements.append("template \(index), round \(round), row \(rowIndex): Swift \(expected), evaluator \(actual), filter \(filter)")
                    }
                }
            }
        }
        #expect(predicates == rounds * DifferentialTemplates.all.count)
        #expect(outcomes.keys.sorted() == ["false", "throws", "true"], "rows and constants reach every outcome")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(5).joined(separator: "\n"))")
    }
}
