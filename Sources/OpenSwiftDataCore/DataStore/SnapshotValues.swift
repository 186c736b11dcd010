/// The property values of a ``DefaultSnapshot``, by property name. Snapshots built from a model's
/// backing data or by the default store hold them in the model's slot order, so that the context
/// and the store read them by position without hashing a name per value (two dictionaries per
/// row were the largest cost of a fetch); any other snapshot holds a dictionary. Slots hold the
/// bare values, so a fetched row becomes a model's slots without being copied value by value.
package struct SnapshotValues: Sequence, @unchecked Sendable {
    private enum Storage {
        case named([String: SnapshotValue])
        /// One entry per property of the model type, in slot order; nil for a property the
        /// snapshot says nothing about.
        case slots(ModelTypeInfo, [Any?])
    }

    private let storage: Storage
    /// Whether every attribute slot is known to hold its property's declared type (the default
    /// store's reader guarantees it), so readers need not check each value.
    package let attributesTyped: Bool

    package init(_ named: [String: SnapshotValue]) {
        storage = .named(named)
        attributesTyped = false
    }

    package init(info: ModelTypeInfo, slots: [Any?], attributesTyped: Bool = false) {
        precondition(slots.count == info.properties.count, "one value per property of \(info.entityName)")
        storage = .slots(info, slots)
        self.attributesTyped = attributesTyped
    }

    package subscript(name: String) -> SnapshotValue? {
        switch storage {
        case .named(let named): return named[name]
        case .slots(let info, let slots): return info.slot(named: name).flatMap { slots[$0] }.map(SnapshotValue.init)
        }
    }

    /// The value of one of `info`'s properties: by position when the snapshot is in that type's
    /// slot order, else by name.
    package func value(of property: ModelTypeInfo.Property, in info: ModelTypeInfo) -> SnapshotValue? {
        if case .slots(let own, let slots) = storage, own === info { return slots[property.index].map(SnapshotValue.init) }
        return self[property.name]
    }

    /// The values in `info`'s slot order without lookups, when the snapshot is in that order.
    package func slots(for info: ModelTypeInfo) -> [Any?]? {
        if case .slots(let own, let slots) = storage, own === info { return slots }
        return nil
    }

    package var keys: [String] { map(\.key) }
    package var values: [SnapshotValue] { map(\.value) }

    /// The values with each identifier `remap` holds replaced by its new one. In slot order, only
    /// the slots that can hold identifiers are looked at, and the attributes keep their types.
    package func remapped(_ remap: [PersistentIdentifier: PersistentIdentifier]) -> SnapshotValues {
        switch storage {
        case .named(let named):
            return SnapshotValues(named.mapValues { $0.remapped(remap) })
        case .slots(let info, var slots):
            for slot in info.identifierSlots {
                if let value = slots[slot] { slots[slot] = SnapshotValue(value).remapped(remap).value }
            }
            return SnapshotValues(info: info, slots: slots, attributesTyped: attributesTyped)
        }
    }

    package func makeIterator() -> AnyIterator<(key: String, value: SnapshotValue)> {
        switch storage {
        case .named(let named):
            var inner = named.makeIterator()
            return AnyIterator { inner.next() }
        case .slots(let info, let slots):
            var index = 0
            return AnyIterator {
                while index < slots.count {
                    defer { index += 1 }
                    if let value = slots[index] { return (info.properties[index].name, SnapshotValue(value)) }
                }
                return nil
            }
        }
    }
}
