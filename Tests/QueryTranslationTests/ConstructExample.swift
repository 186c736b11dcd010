import Foundation
import OpenSwiftData
import Testing

/// One predicate construct with the tree it translates to and the SQLite it renders to.
struct ConstructExample: Sendable, CustomTestStringConvertible {
    var name: String
    var predicate: Predicate<TripRow>
    var tree: QueryExpression
    var sql: String
    var arguments: [QueryValue]

    init(_ name: String, _ predicate: Predicate<TripRow>, tree: QueryExpression, sql: String, arguments: [QueryValue] = []) {
        self.name = name
        self.predicate = predicate
        self.tree = tree
        self.sql = sql
        self.arguments = arguments
    }

    var testDescription: String { name }
}

@Suite struct ConstructTests {
    static let examples = ConstructExample.comparisons + ConstructExample.logic + ConstructExample.arithmetic
        + ConstructExample.optionals + ConstructExample.strings + ConstructExample.collections + ConstructExample.identities

    @Test(arguments: examples)
    func translatesToTree(_ example: ConstructExample) throws {
        #expect(try Fixtures.translator.translate(example.predicate) == example.tree)
    }

    @Test(arguments: examples)
    func rendersSQLiteWithBoundArguments(_ example: ConstructExample) throws {
        let fragment = try Fixtures.renderer.render(example.tree)
        #expect(fragment.sql == example.sql)
        #expect(fragment.arguments == example.arguments)
    }
}
