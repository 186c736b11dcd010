import Observation

/// The observation registrar the `@Model` macro gives each model class. Not for direct use.
///
/// An `ObservationRegistrar` allocates two objects when it is created; most models (every one a
/// bulk insert creates, most of those a fetch loads) are never observed. This one creates its
/// registrar on the first read of a property, the only way an observer can start watching the
/// model: until then no one can be watching, so a mutation has no one to tell. It saves two
/// allocations and 100 bytes per model (10 MB of a 100,000-model insert).
public struct ModelObservationRegistrar: Sendable {
    private var registrar: ObservationRegistrar?

    public init() {}

    /// Records a read of `keyPath` for the observation tracking under way, if any.
    public mutating func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if registrar == nil { registrar = ObservationRegistrar() }
        registrar.unsafelyUnwrapped.access(subject, keyPath: keyPath)
    }

    /// Runs `mutation`, telling the model's observers before and after. Called on a copy of the
    /// stored registrar: an observer's `onChange` runs inside and may read the model again, which
    /// needs the stored one.
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard let registrar else { return try mutation() }
        return try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}
