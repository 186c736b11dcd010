import OpenSwiftDataCore

// `import SwiftData` re-exports the core's types one by one (so that it brings SwiftData's names
// only), and a scoped import does not carry a module's operators and protocol-extension
// witnesses with it. These live here, in a module both `SwiftData` and `OpenSwiftData` export whole.

extension PersistentModel {
    /// Models are equal when they are the same instance: identity survives the temporary →
    /// permanent identifier change on save, so a `Set` of models stays valid across saves.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    /// Hashes the model's instance identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension SwiftDataError {
    /// Lets `case SwiftDataError.unsupportedPredicate:` match any thrown error.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        (rhs as? SwiftDataError) == lhs
    }
}
