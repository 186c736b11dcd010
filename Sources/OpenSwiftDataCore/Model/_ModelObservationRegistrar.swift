import Observation

/// The observation registrar the `@Model` macro gives each model class. Not for direct use.
///
/// An `ObservationRegistrar` allocates two objects when it is created; most models (every one a
/// bulk insert creates, most of those a fetch loads) are never observed. This one creates its
/// registrar on the first read of a property, the only way an observer can start watching the
/// model: until then no one can be watching, so a mutation has no one to tell. It saves those two
/// allocations for every model no one reads.
public struct _ModelObservationRegistrar: Sendable {
    /// What every model holds until its first read: a registrar no one observes through (reads
    /// replace it before they register anything), so holding it costs a retain, not two objects.
    /// Not an `Optional`: `ObservationRegistrar` is resilient, and an optional of it went through
    /// value witnesses on every property read.
    private static let placeholder = ObservationRegistrar()

    private var registrar = placeholder
    private var isOwn = false

    /// Creates a registrar that shares a placeholder until the model's first observed access.
    public init() {}

    /// Records a read of `keyPath` for the observation tracking under way, if any.
    public mutating func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if !isOwn {
            registrar = ObservationRegistrar()
            isOwn = true
        }
        registrar.access(subject, keyPath: keyPath)
    }

    /// Runs `mutation`, telling the model's observers before and after. An observer's `onChange`
    /// runs inside and may read the model again.
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard isOwn else { return try mutation() }
        return try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }

    /// Tells the model's observers that `keyPath` is about to change (a `_modify` accessor's start).
    public func willSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        guard isOwn else { return }
        registrar.willSet(subject, keyPath: keyPath)
    }

    /// Tells the model's observers that `keyPath` changed (a `_modify` accessor's end).
    public func didSet<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        guard isOwn else { return }
        registrar.didSet(subject, keyPath: keyPath)
    }
}
