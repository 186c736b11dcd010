import Foundation

/// Tracks the models registered in it (one instance per identifier), their unsaved inserts,
/// changes and deletes, and writes them to the container's stores.
///
/// ```swift
/// let context = ModelContext(container)
/// context.insert(Trip(name: "Paris", destination: "France", startDate: .now))
/// try context.save()
/// ```
///
/// A context is not thread-safe: use it from one thread or actor (see ``ModelActor``).
public class ModelContext: Equatable, SendableMetatype {
    /// The container whose stores this context fetches from and saves to.
    public let container: ModelContainer

    /// Identifies this context to its stores; `author` is the same storage as `editingState.author`.
    public var editingState: EditingState

    /// Who makes this context's changes (`editingState.author`, which its stores receive); `nil` by default.
    public var author: String? {
        get { editingState.author }
        set { editingState.author = newValue }
    }

    /// Saves automatically on the main actor's next turn after a change. `true` for the container's
    /// `mainContext`, `false` for contexts you create. The save runs on the main actor, so only a
    /// context used on the main actor (the `mainContext`) autosaves; on any other context the flag
    /// is recorded and changes wait for an explicit `save()`.
    public var autosaveEnabled = false {
        didSet { if autosaveEnabled { scheduleAutosave() } }
    }

    /// Set for the container's `mainContext`, the one context whose thread (the main actor's) is known.
    var isMainContext = false

    /// The identity map: every registered model, by identifier.
    ///
    /// It and the pending sets are `@exclusivity(unchecked)`: read on every fetch, registration
    /// and property set, each access was otherwise checked at run time (`swift_beginAccess`;
    /// a lookup by key made three). None is accessed inout across a call that could
    /// reach the context again (the tests the sets' `contains(where:)` runs only read), and a
    /// context is used by one thread at a time.
    @exclusivity(unchecked) var registry = IdentityMap()
    @exclusivity(unchecked) var inserted = PendingSet(.inserted)
    @exclusivity(unchecked) var changed = PendingSet(.changed)
    @exclusivity(unchecked) var deleted = PendingSet(.deleted)
    /// Snapshot values of related models a store sent along with a fetch, used to fault them in.
    var relatedRows: [PersistentIdentifier: [Any?]] = [:]
    /// Backing datas with to-manys modified in place since the last save.
    var awaitingInverseCheck: [BackingStorage] = []
    private var autosaveScheduled = false

    /// A new context of the container, with no registered models and no pending changes.
    public init(_ container: ModelContainer) {
        self.container = container
        editingState = EditingState()
        for slot in container.stores { slot.initializeState(for: editingState) }
    }

    deinit {
        // A relationship and its inverse refer to each other, so related models form cycles that
        // would keep every graph this context held alive. Without the context nothing resolves a
        // relationship any more (a fetched model's read nil or empty already), so they let go.
        registry.releaseRelationships()
        for slot in container.stores { slot.invalidateState(for: editingState) }
    }

    /// Whether both are the same context.
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }

    /// Whether any model was inserted, changed or deleted since the last save.
    public var hasChanges: Bool { !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted.models }
    /// The saved models changed since the last save.
    public var changedModelsArray: [any PersistentModel] { changed.models }
    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { deleted.models }

    /// The model registered for an identifier, or `nil` when this context does not know it.
    public func registeredModel<T>(for persistentModelID: PersistentIdentifier) -> T? where T: PersistentModel {
        registry[persistentModelID] as? T
    }

    /// Lets the undo manager record pending changes. Undo is not supported on Linux yet; this is a no-op.
    public func processPendingChanges() {}

    func hasPendingChange(_ storage: BackingStorage) -> Bool {
        // Most fetches come after a save, with nothing pending: they skip the three position
        // checks for every fetched model the context already holds.
        if inserted.isEmpty && changed.isEmpty && deleted.isEmpty { return false }
        return inserted.contains(storage) || changed.contains(storage) || deleted.contains(storage)
    }

    func scheduleAutosave() {
        guard autosaveEnabled, isMainContext, !autosaveScheduled, hasChanges else { return }
        autosaveScheduled = true
        let context = WeakContext(self)
        Task { @MainActor in context.value?.runAutosave() }
    }

    private func runAutosave() {
        autosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        // As in SwiftData, an autosave that fails leaves the changes pending for an explicit save.
        try? save()
    }
}

/// Carries the main context to the main actor for autosave; only ever dereferenced there.
private final class WeakContext: @unchecked Sendable {
    weak var value: ModelContext?
    init(_ value: ModelContext) { self.value = value }
}
