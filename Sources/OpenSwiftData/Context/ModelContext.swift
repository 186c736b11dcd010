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
    public let container: ModelContainer

    /// Identifies this context to its stores; `author` is the same storage as `editingState.author`.
    public var editingState: EditingState

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
    var registry: [PersistentIdentifier: any PersistentModel] = [:]
    var inserted = PendingSet()
    var changed = PendingSet()
    var deleted = PendingSet()
    /// Snapshot values of related models a store sent along with a fetch, used to fault them in.
    var relatedRows: [PersistentIdentifier: [Any?]] = [:]
    private var autosaveScheduled = false

    public init(_ container: ModelContainer) {
        self.container = container
        editingState = EditingState()
        for slot in container.stores { slot.initializeState(for: editingState) }
    }

    deinit {
        for slot in container.stores { slot.invalidateState(for: editingState) }
    }

    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }

    public var hasChanges: Bool { !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty }

    public var insertedModelsArray: [any PersistentModel] { inserted.models }
    public var changedModelsArray: [any PersistentModel] { changed.models }
    public var deletedModelsArray: [any PersistentModel] { deleted.models }

    /// The model registered for an identifier, or `nil` when this context does not know it.
    public func registeredModel<T>(for persistentModelID: PersistentIdentifier) -> T? where T: PersistentModel {
        registry[persistentModelID] as? T
    }

    /// Lets the undo manager record pending changes. Undo is not supported on Linux yet; this is a no-op.
    public func processPendingChanges() {}

    func hasPendingChange(_ storage: BackingStorage) -> Bool {
        inserted.contains(storage) || changed.contains(storage) || deleted.contains(storage)
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

/// Models pending one kind of change, in the order they were added. Each entry keeps the model's
/// backing storage as well, so that a save does not cast every model's backing data again.
struct PendingSet {
    private var entries: [ObjectIdentifier: (order: Int, model: any PersistentModel, storage: BackingStorage)] = [:]
    private var counter = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    var models: [any PersistentModel] {
        entries.values.sorted { $0.order < $1.order }.map { $0.model }
    }

    var storages: [BackingStorage] {
        entries.values.sorted { $0.order < $1.order }.map { $0.storage }
    }

    func contains(_ storage: BackingStorage) -> Bool { entries[ObjectIdentifier(storage)] != nil }

    /// Whether any pending model passes `test`; unordered, so no sort on the fetch path.
    func contains(where test: (BackingStorage) -> Bool) -> Bool {
        // Checked first: iterating walks every bucket, and an emptied dictionary keeps them.
        guard !entries.isEmpty else { return false }
        return entries.values.contains { test($0.storage) }
    }

    mutating func add(_ model: any PersistentModel) {
        guard let storage = model.backingStorage else { return }
        let key = ObjectIdentifier(storage)
        guard entries[key] == nil else { return }
        counter += 1
        entries[key] = (counter, model, storage)
    }

    mutating func remove(_ storage: BackingStorage) {
        guard !entries.isEmpty else { return }
        entries.removeValue(forKey: ObjectIdentifier(storage))
        // A save empties the set one model at a time; its buckets (megabytes after a large
        // insert) are given back, and later scans do not walk them.
        if entries.isEmpty { entries = [:] }
    }

    mutating func removeAll() { entries.removeAll() }
}
