/// Models pending one kind of change, in the order they were added. Each entry keeps the model's
/// backing storage as well, so that a save does not cast every model's backing data again.
///
/// An array, not a dictionary: each storage remembers its position in the set of each kind
/// (``BackingStorage/pendingPositions``), checked against the entry there before it is trusted.
/// A dictionary by storage was mostly empty room at the peak of a large insert, and hashed every
/// model on each add, lookup and removal.
struct PendingSet {
    enum Kind { case inserted, changed, deleted }

    /// A storage's position in the set of each kind; -1 for none. 12 bytes, inline in the storage.
    struct Positions {
        private var inserted: Int32 = -1
        private var changed: Int32 = -1
        private var deleted: Int32 = -1

        subscript(kind: Kind) -> Int32 {
            get {
                switch kind {
                case .inserted: inserted
                case .changed: changed
                case .deleted: deleted
                }
            }
            set {
                switch kind {
                case .inserted: inserted = newValue
                case .changed: changed = newValue
                case .deleted: deleted = newValue
                }
            }
        }
    }

    private typealias Entry = (model: any PersistentModel, storage: BackingStorage)

    let kind: Kind
    /// In the order added; a removed entry is `nil` until the array is compacted.
    private var entries: [Entry?] = []
    private(set) var count = 0

    init(_ kind: Kind) { self.kind = kind }

    var isEmpty: Bool { count == 0 }

    var models: [any PersistentModel] { entries.compactMap { $0?.model } }

    var storages: [BackingStorage] { entries.compactMap { $0?.storage } }

    func contains(_ storage: BackingStorage) -> Bool { position(of: storage) != nil }

    /// Whether any pending model passes `test`.
    func contains(where test: (BackingStorage) -> Bool) -> Bool {
        guard count > 0 else { return false }
        return entries.contains { $0.map { test($0.storage) } ?? false }
    }

    mutating func add(_ model: any PersistentModel) {
        guard let storage = model.backingStorage else { return }
        add(model, storage: storage)
    }

    /// Adds a model whose storage the caller has at hand.
    mutating func add(_ model: any PersistentModel, storage: BackingStorage) {
        guard !contains(storage) else { return }
        storage.pendingPositions[kind] = Int32(entries.count)
        entries.append((model, storage))
        count += 1
    }

    mutating func remove(_ storage: BackingStorage) {
        guard let position = position(of: storage) else { return }
        entries[position] = nil
        storage.pendingPositions[kind] = -1
        count -= 1
        if count == 0 {
            // Its buckets (megabytes after a large insert) are given back.
            entries = []
        } else if entries.count >= 64 && count * 2 < entries.count {
            compact()
        }
    }

    mutating func removeAll() {
        // Storages keep their stale positions; `position(of:)` finds no entry of theirs there.
        entries = []
        count = 0
    }

    /// The storage's entry, when this set holds it: a storage is pending in at most one context,
    /// whose set of each kind is the only one that writes its position of that kind.
    private func position(of storage: BackingStorage) -> Int? {
        let position = Int(storage.pendingPositions[kind])
        guard position >= 0, position < entries.count, entries[position]?.storage === storage else { return nil }
        return position
    }

    /// Drops the removed entries, keeping the order; amortised over the removals that made half
    /// the array empty.
    private mutating func compact() {
        var kept: [Entry?] = []
        kept.reserveCapacity(count)
        for case let entry? in entries {
            entry.storage.pendingPositions[kind] = Int32(kept.count)
            kept.append(entry)
        }
        entries = kept
    }
}
