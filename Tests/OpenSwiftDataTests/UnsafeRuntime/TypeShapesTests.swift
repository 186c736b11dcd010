import Foundation
import Testing
import OpenSwiftData

/// The library's cast-free reads of values whose type it knows (`holdsExactly`, `takeExactly`,
/// `unwrapOptional`), including the `Any` that generic code builds around an existential.
@Suite struct TypeShapesTests {
    /// A value wrapped as `Any` by generic code, as snapshot values are.
    private func boxed<T>(_ value: T) -> Any { value }

    @Test func aValueIsTakenOutAsItsOwnTypeOnly() {
        let value: Any = 42
        #expect(holdsExactly(value, Int.self))
        #expect(!holdsExactly(value, Int?.self))
        #expect(!holdsExactly(value, Int64.self))
        #expect(takeExactly(value, as: Int.self) == 42)
    }

    @Test func aModelExistentialInsideAnAnyIsNotExactlyTheModelYetIsTakenOut() {
        // As a to-one's slot gives it: an Optional of the existential, unwrapped generically.
        let inner: (any PersistentModel)? = ShapeProbe(name: "Jane")
        let value = inner.optionalWrappedValue!
        #expect(!holdsExactly(value, ShapeProbe.self))
        #expect(takeExactly(value, as: ShapeProbe.self).name == "Jane")
        #expect(declaredModels(value, of: ShapeProbe.self) == nil)
    }

    @Test func declaredModelsReadsAModelOrAnArrayOfThem() {
        let one = ShapeProbe(name: "a"), two = ShapeProbe(name: "b")
        #expect(declaredModels(one, of: ShapeProbe.self)?.map(\.persistentModelID) == [one.persistentModelID])
        #expect(declaredModels([one, two], of: ShapeProbe.self)?.count == 2)
        #expect(declaredModels("a", of: ShapeProbe.self) == nil)
    }

    @Test func relationshipModelsFallBackToCastingWhatIsNotExactlyTheDeclaredType() {
        let probe = ShapeProbe(name: "Jane")
        let shape = PropertyShape.toOne(ShapeProbe.self, optional: true)
        let inner: (any PersistentModel)? = probe
        #expect(relationshipModels(in: probe, shape: shape)?.map(\.persistentModelID) == [probe.persistentModelID])
        #expect(relationshipModels(in: inner.optionalWrappedValue!, shape: shape)?.map(\.persistentModelID) == [probe.persistentModelID])
        #expect(relationshipModels(in: "Jane", shape: shape) == nil)
    }

    @Test func unwrapOptionalRemovesEveryOptionalLayer() {
        let nested: Int?? = .some(.some(7))
        #expect(unwrapOptional(nested as Any) as? Int == 7)
        let empty: Int?? = .some(nil)
        #expect(unwrapOptional(empty as Any) == nil)
        #expect(unwrapOptional(boxed(Optional("x"))) as? String == "x")
        #expect(unwrapOptional(5) as? Int == 5)
    }
}

@Model final class ShapeProbe {
    var name: String
    init(name: String) { self.name = name }
}
