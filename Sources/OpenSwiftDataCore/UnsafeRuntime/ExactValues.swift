/// Whether an existential holds exactly a `T`, so that ``takeExactly(_:as:)`` may take it out.
///
/// Where the library usually knows a value's type, the pair replaces `as?`, which always goes
/// through the dynamic cast machinery (a conformance lookup for protocol types, element-by-element
/// conversion for arrays), on paths that run per value or per related model. The type compared
/// is the opened one, not `type(of:)`: an `Any` built in generic code
/// around an `any PersistentModel` holds that existential, and `type(of:)` names the model inside.
package func holdsExactly<T>(_ value: Any, _: T.Type) -> Bool {
    func open<Stored>(_: Stored) -> Bool { Stored.self == T.self }
    return _openExistential(value, do: open)
}

/// The value inside an existential that ``holdsExactly(_:_:)`` (or `type(of:)`) found to be a `T`.
package func takeExactly<T>(_ value: Any, as _: T.Type) -> T {
    // An existential nested in the `Any`, which `type(of:)` looks through, is cast through.
    func open<Stored>(_ stored: Stored) -> T {
        Stored.self == T.self && UnsafeRuntime.shortcutsEnabled ? unsafeBitCast(stored, to: T.self) : stored as! T
    }
    return _openExistential(value, do: open)
}
