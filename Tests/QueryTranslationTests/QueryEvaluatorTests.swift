import Foundation
import OpenSwiftData
import Testing

@Suite struct QueryEvaluatorTests {
    let row = TripRow(nights: Int.max, rating: nil)

    @Test func forceUnwrappingNilThrowsLikePredicateEvaluate() {
        let filter = QueryExpression.comparison(.forceUnwrap(.attribute("rating")), .greaterThan, .integer(1), type: .integer)
        let error = #expect(throws: QueryEvaluationError.self) { try row.evaluator.matches(filter) }
        #expect(error?.kind == .forceUnwrapFailure)
    }

    @Test(arguments: [
        (QueryExpression.arithmetic(.attribute("nights"), .add, .integer(1)), QueryEvaluationError.Kind.arithmeticOverflow),
        (.arithmetic(.integer(.min), .integerDivide, .integer(-1)), .arithmeticOverflow),
        (.negate(.integer(.min)), .arithmeticOverflow),
        (.arithmetic(.attribute("nights"), .remainder, .integer(0)), .divisionByZero),
        (.arithmetic(.attribute("nights"), .add, .double(1)), .typeMismatch),
        (.variable(3), .undefinedVariable),
    ])
    func throwsWhereSwiftTrapsOrTheRowDoesNotFit(_ expression: QueryExpression, _ kind: QueryEvaluationError.Kind) {
        let error = #expect(throws: QueryEvaluationError.self) { try row.evaluator.evaluate(expression) }
        #expect(error?.kind == kind)
    }

    @Test func stopsAtTheFirstDecidingOperandAsSwiftDoes() throws {
        let failing = QueryExpression.comparison(.forceUnwrap(.attribute("rating")), .equal, .integer(1), type: .integer)
        #expect(try row.evaluator.matches(.and(.bool(false), failing)) == false)
        #expect(try row.evaluator.matches(.or(.bool(true), failing)) == true)
        #expect(try row.evaluator.evaluate(.coalesce(.integer(1), default: .forceUnwrap(.attribute("rating")))) == .integer(1))
    }

    @Test func floatingPointFollowsIEEE() throws {
        let nan = QueryExpression.double(.nan)
        #expect(try row.evaluator.matches(.comparison(nan, .equal, nan, type: .double)) == false)
        #expect(try row.evaluator.matches(.comparison(nan, .notEqual, nan, type: .double)) == true)
        #expect(try row.evaluator.matches(.comparison(nan, .lessThanOrEqual, nan, type: .double)) == false)
        #expect(try row.evaluator.matches(.comparison(.double(-0.0), .equal, .double(0), type: .double)) == true)
        #expect(try row.evaluator.evaluate(.arithmetic(.double(1), .floatDivide, .double(-0.0))) == .double(-.infinity))
    }

    @Test func sortOrderPutsNilFirstAscendingAndLastDescending() {
        #expect(QueryEvaluator.compare(.null, .integer(1), ascending: true) == .orderedAscending)
        #expect(QueryEvaluator.compare(.null, .integer(1), ascending: false) == .orderedDescending)
        #expect(QueryEvaluator.compare(.string("b"), .string("a"), ascending: true) == .orderedDescending)
        #expect(QueryEvaluator.compare(.string("é"), .string("e\u{301}"), ascending: true) == .orderedSame)
        #expect(QueryEvaluator.compare(.double(.nan), .double(1), ascending: true) == .orderedSame)
        #expect(QueryEvaluator.compare(.null, .null, ascending: false) == .orderedSame)
    }
}

@Suite struct QueryValueConversionTests {
    @Test func convertiblesHaveTheirQueryForm() {
        #expect(UInt8(7).queryValue == .integer(7))
        #expect(Int32.min.queryValue == .integer(Int64(Int32.min)))
        #expect(Float(0.5).queryValue == .double(0.5))
        #expect(URL(string: "https://example.com/a?b")!.queryValue == .string("https://example.com/a?b"))
        #expect((nil as Int?).queryValue == .null)
        #expect(Set([3]).queryValue == .array([.integer(3)]))
        #expect(ContiguousArray([true]).queryValue == .array([.bool(true)]))
        #expect(Fixtures.tripID(1).queryValue == .identifier(Fixtures.tripID(1)))
    }

    @Test func structuralEqualityTellsNaNAndSignedZeroApart() {
        #expect(QueryValue.double(.nan) == .double(.nan))
        #expect(QueryValue.double(-0.0) != .double(0))
        #expect(Set([QueryValue.double(.nan), .double(.nan)]).count == 1)
    }
}
