import OpenSwiftData
import Testing

/// Backing data reads its slots' `nil`s in place when this runtime lays `Any?` out as expected;
/// on the platforms this library supports it does, so the in-place path is the one that runs.
@Suite struct AnyOptionalLayoutTests {
    @Test func theTypeWordOfAnAnyMarksNilOnThisRuntime() {
        #expect(AnyOptionalLayout.typeWordOffset == 24)
        #expect(AnyOptionalLayout.verifiedTypeWordMarksNil)
        #expect(AnyOptionalLayout.verifiedHoldsArraysInline)
        #expect(AnyOptionalLayout.typeWordMarksNil)
        #expect(AnyOptionalLayout.holdsArraysInline)
    }
}
