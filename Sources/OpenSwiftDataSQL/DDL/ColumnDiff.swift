/// A column as a table holds it or as the schema wants it: what ``ColumnDiff`` compares.
package struct ColumnState: Sendable, Hashable {
    package var name: String
    /// What must stay the same for the stored values to be kept (a catalog type, a storage kind
    /// and destination); compared, never parsed.
    package var kind: String
    package var isNullable: Bool
    /// False for a property kept outside the table (a to-many): its kind is compared, but it is
    /// never added, renamed or dropped.
    package var hasColumn: Bool
    /// The name in the previous version (`originalName`), for a wanted column.
    package var originalName: String?

    package init(_ name: String, kind: String, isNullable: Bool, hasColumn: Bool = true, originalName: String? = nil) {
        self.name = name
        self.kind = kind
        self.isNullable = isNullable
        self.hasColumn = hasColumn
        self.originalName = originalName
    }
}

/// One step of bringing a table's columns to the schema's, in the order ``ColumnDiff/changes(from:to:)``
/// lists them.
package enum ColumnChange: Sendable, Hashable {
    /// A new column: the store adds it and fills the stored rows (how is its own, as each
    /// dialect takes defaults differently).
    case add(String)
    case rename(from: String, to: String)
    /// NULL becomes allowed (``TableChange/dropNotNull(_:)``).
    case dropNotNull(String)
    /// NULL is no longer allowed: the store refuses when a row holds one, then renders
    /// ``TableChange/setNotNull(_:)`` where its dialect can.
    case setNotNull(String)
    case drop(String)
    /// The stored column's kind differs from the wanted one's: lightweight migration cannot
    /// convert the values, so the store refuses.
    case incompatible(String, stored: String, wanted: String)
}

/// The difference between the columns a table holds and those the schema wants, which both SQL
/// stores' lightweight migrations execute.
package enum ColumnDiff {
    /// Per wanted column in order: kept (its nullability may change), renamed from its original
    /// name (a kind change is refused before the rename), or added; then the stored columns no
    /// wanted one kept are dropped.
    package static func changes(from stored: [ColumnState], to wanted: [ColumnState]) -> [ColumnChange] {
        var remaining = stored
        var changes: [ColumnChange] = []
        for column in wanted {
            let old: ColumnState
            if let index = remaining.firstIndex(where: { $0.name == column.name }) {
                old = remaining.remove(at: index)
            } else if let original = column.originalName, !wanted.contains(where: { $0.name == original }),
                      let index = remaining.firstIndex(where: { $0.name == original }) {
                old = remaining.remove(at: index)
                if old.kind == column.kind, column.hasColumn { changes.append(.rename(from: original, to: column.name)) }
            } else {
                if column.hasColumn { changes.append(.add(column.name)) }
                continue
            }
            if old.kind != column.kind {
                changes.append(.incompatible(column.name, stored: old.kind, wanted: column.kind))
            } else if old.isNullable != column.isNullable {
                changes.append(column.isNullable ? .dropNotNull(column.name) : .setNotNull(column.name))
            }
        }
        changes += remaining.filter(\.hasColumn).map { .drop($0.name) }
        return changes
    }
}
