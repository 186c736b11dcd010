import Synchronization

/// The boundary around the library's unsafe runtime code: every raw memory read, `unsafeBitCast`
/// and unchecked downcast the model layer relies on lives in this folder, behind a safe API.
///
/// Each shortcut rests on a fact about the Swift runtime (how an `Any?` is laid out, that a class
/// array is one reference, that two types found equal may be reinterpreted) that is either
/// verified once on real values or checked right before the shortcut is taken. Each also has a
/// general path, plain Swift that gives the same answers more slowly: it is taken when a check
/// fails on some future runtime, and tests take it on purpose through
/// ``withShortcutsDisabled(_:)`` to prove the two agree.
///
/// - ``AnyOptionalLayout``: `nil` slots found, and to-many arrays appended to, where the values hold them.
/// - ``InlineAttributes``: common attribute values read and compared inside their `Any`.
/// - ``BackingAdoption``: a fetched model starts with the context's backing data, handed over
///   through a thread-specific slot.
/// - `RelationshipRule.forEachModel(in:_:)`, `objects(in:)`, `declaredValue(_:)`: relationship
///   values read as the object references they are.
/// - ``takeExactly(_:as:)`` and ``reinterpret(_:as:)``: values of a type already compared equal,
///   taken without a dynamic cast.
/// - ``IdentityCache`` over ``PointerTable``: what was worked out per key path or type, found by
///   the object's address.
/// - `PersistentModel.backingStorage`: the library's backing data, found by its type.
/// - ``downcast(_:to:)``: objects of a class the caller knows.
///
/// Two have no general path. ``AssumedSendable`` only tells the compiler what marker protocols
/// cannot express, and changes no bits. `BackingAdoption.typed(_:as:)` hands a hierarchy's one
/// backing data to each of its classes, whose model type is a phantom of ``ModelBackingData``;
/// the inheritance tests run it for every class of a hierarchy.
package enum UnsafeRuntime {
    /// How many callers of ``withShortcutsDisabled(_:)`` are running, in any task.
    private static let disablers = Atomic<Int>(0)

    /// Whether the current task is inside ``withShortcutsDisabled(_:)``.
    @TaskLocal private static var disabledHere = false

    /// Whether the shortcuts may be taken: one relaxed load, as every property read asks; the
    /// task-local is read only while some task has them disabled.
    @inline(__always)
    package static var shortcutsEnabled: Bool { disablers.load(ordering: .relaxed) == 0 || !disabledHere }

    /// Runs `body` with every shortcut of this folder on its general path, for tests that prove
    /// the two paths agree. Only synchronous work of the calling task is affected, so tests running
    /// beside it keep their shortcuts.
    package static func withShortcutsDisabled<R>(_ body: () throws -> R) rethrows -> R {
        disablers.add(1, ordering: .relaxed)
        defer { disablers.subtract(1, ordering: .relaxed) }
        return try $disabledHere.withValue(true) { try body() }
    }

    /// `value`, whose type the caller has found to be `U`, as a `U`, without a dynamic cast.
    @inline(__always)
    package static func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
        guard shortcutsEnabled, T.self == U.self else { return value as! U }
        return unsafeBitCast(value, to: U.self)
    }

    /// `object`, which the caller knows to be a `T`, as one, without a dynamic cast.
    @inline(__always)
    package static func downcast<T: AnyObject>(_ object: AnyObject, to _: T.Type) -> T {
        shortcutsEnabled ? unsafeDowncast(object, to: T.self) : object as! T
    }
}
