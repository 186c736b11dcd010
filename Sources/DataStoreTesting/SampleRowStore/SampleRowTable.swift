import OpenSwiftData

/// One entity's snapshots in the order they were first saved, with each one's position by
/// identifier: a fetch hands the array over as it is, and a save finds the snapshot it replaces
/// without a scan.
struct SampleRowTable {
    private(set) var snapshots: [DefaultSnapshot] = []
    private var positions: [PersistentIdentifier: Int] = [:]

    func snapshot(for identifier: PersistentIdentifier) -> DefaultSnapshot? {
        positions[identifier].map { snapshots[$0] }
    }

    /// The snapshots of these identifiers that the table holds, in the table's order.
    func snapshots(for identifiers: [PersistentIdentifier]) -> [DefaultSnapshot] {
        identifiers.compactMap { positions[$0] }.sorted().map { snapshots[$0] }
    }

    /// Replaces the snapshot of the same identifier, or appends it.
    mutating func put(_ snapshot: DefaultSnapshot) {
        if let position = positions[snapshot.persistentIdentifier] {
            snapshots[position] = snapshot
        } else {
            positions[snapshot.persistentIdentifier] = snapshots.count
            snapshots.append(snapshot)
        }
    }

    /// Replaces each snapshot `transform` gives a new version of, keeping the order.
    mutating func replaceEach(_ transform: (DefaultSnapshot) -> DefaultSnapshot?) {
        for index in snapshots.indices {
            if let replaced = transform(snapshots[index]) { snapshots[index] = replaced }
        }
    }

    /// Removes the snapshots of these identifiers in one pass, keeping the others' order.
    mutating func remove(_ doomed: Set<PersistentIdentifier>) {
        guard doomed.contains(where: { positions[$0] != nil }) else { return }
        snapshots.removeAll { doomed.contains($0.persistentIdentifier) }
        positions.removeAll(keepingCapacity: true)
        for (position, snapshot) in snapshots.enumerated() { positions[snapshot.persistentIdentifier] = position }
    }
}
