/// Which value slots of a model changed since it was last loaded or saved: a bit per slot, and
/// for a model with more slots than bits, "any of them" (``isKnown`` false), so a save then
/// writes the whole row.
package struct ChangedSlots: Equatable, Sendable {
    private var bits: UInt64 = 0
    private var overflowed = false

    package init() {}

    package mutating func insert(_ slot: Int) {
        if slot < UInt64.bitWidth { bits |= 1 << UInt64(slot) } else { overflowed = true }
    }

    /// Whether the changed slots are known one by one.
    package var isKnown: Bool { !overflowed }

    /// Whether `slot` may have changed: true for every slot when the slots are not known.
    package func contains(_ slot: Int) -> Bool {
        overflowed || (slot < UInt64.bitWidth && bits & (1 << UInt64(slot)) != 0)
    }
}
