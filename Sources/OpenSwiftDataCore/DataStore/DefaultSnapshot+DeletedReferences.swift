extension DefaultSnapshot {
    /// This snapshot without its references to `gone`, models a batch delete removed: what a
    /// store that keeps snapshots as they are writes back for each model that referred to one
    /// (an optional to-one pointing at one becomes nil, a to-many drops them), as the context's
    /// nullify would have had them saved. Nil when the snapshot refers to none of them, or its
    /// entity is no model type of this process.
    public func removingReferences(to gone: Set<PersistentIdentifier>) -> DefaultSnapshot? {
        guard !gone.isEmpty, let type = EntityRegistry.modelType(named: persistentIdentifier.entityName) else { return nil }
        return removingReferences(to: gone, info: ModelTypeInfo.of(type))
    }

    /// ``removingReferences(to:)`` for a snapshot of `info`'s model type, which a store that
    /// walks many snapshots of one entity looks up once. A required to-one keeps its reference,
    /// having no empty value.
    package func removingReferences(to gone: Set<PersistentIdentifier>, info: ModelTypeInfo) -> DefaultSnapshot? {
        var changed: [(slot: Int, value: Any)] = []
        for slot in info.relationshipSlots {
            let property = info.properties[slot]
            guard let stored = values.value(of: property, in: info),
                  let kept = Self.removing(gone, from: stored.value, of: property) else { continue }
            changed.append((slot, kept))
        }
        guard !changed.isEmpty else { return nil }
        let newValues: SnapshotValues
        if var slots = values.slots(for: info) {
            for (slot, value) in changed { slots[slot] = value }
            newValues = SnapshotValues(info: info, slots: slots, attributesTyped: values.attributesTyped)
        } else {
            var named = Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            for (slot, value) in changed { named[info.properties[slot].name] = SnapshotValue(value) }
            newValues = SnapshotValues(named)
        }
        return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: newValues, changedSlots: changedSlots)
    }

    /// A relationship's stored identifiers without those in `gone`, in the form it was stored in
    /// (a to-many as `[PersistentIdentifier]` or an optional one); nil when none of them is gone.
    private static func removing(_ gone: Set<PersistentIdentifier>, from stored: Any, of property: ModelTypeInfo.Property) -> Any? {
        switch property.shape {
        case .toMany:
            guard let identifiers = stored as? [PersistentIdentifier] else { return nil }
            let kept = identifiers.filter { !gone.contains($0) }
            guard kept.count != identifiers.count else { return nil }
            return type(of: stored) == [PersistentIdentifier]?.self ? Optional(kept) as Any : kept
        case .toOne:
            guard property.isOptional, let identifier = stored as? PersistentIdentifier, gone.contains(identifier) else { return nil }
            return PersistentIdentifier?.none as Any
        case .attribute:
            return nil
        }
    }
}
