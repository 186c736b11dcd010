@testable import OpenSwiftDataCore
import Testing

/// The keys of the related models that passed a `contains(where:)` test, as the compiled filter
/// asks them: dense integer keys as bits, anything else as a set, with the same answers.
@Suite struct RelatedKeysTests {
    private func keys(_ passing: [PrimaryKey]) -> CompiledFilter.RelatedKeys {
        CompiledFilter.RelatedKeys(scope: nil, entityName: "Grade", passing: Set(passing))
    }

    @Test func denseIntegerKeysAnswerForEveryKeyKind() {
        let related = keys([.integer(0), .integer(3), .integer(64), .integer(4_095)])
        let probes: [PrimaryKey] = [.integer(0), .integer(3), .integer(4), .integer(64), .integer(65), .integer(4_095),
                                    .integer(4_096), .integer(-1), .integer(1 << 40), .string("3")]
        #expect(probes.map(related.contains) == [true, true, false, true, false, true, false, false, false, false])
    }

    @Test func sparseNegativeAndStringKeysAnswerAsASet() {
        let sparse = keys([.integer(1), .integer(1 << 40)])
        #expect([PrimaryKey.integer(1), .integer(1 << 40), .integer(2)].map(sparse.contains) == [true, true, false])
        let negative = keys([.integer(-5), .integer(2)])
        #expect([PrimaryKey.integer(-5), .integer(2), .integer(5)].map(negative.contains) == [true, true, false])
        let strings = keys([.string("k7Qm2"), .integer(2)])
        #expect([PrimaryKey.string("k7Qm2"), .integer(2), .string("2")].map(strings.contains) == [true, true, false])
    }

    @Test func noPassingKeyPassesNothing() {
        #expect([PrimaryKey.integer(0), .integer(63), .string("a")].map(keys([]).contains) == [false, false, false])
    }
}
