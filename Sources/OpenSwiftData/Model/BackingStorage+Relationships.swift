/// Relationship values seen as lists of models, and the in-memory upkeep of inverses: setting one
/// side of a relationship updates the other side at once, before any save, as SwiftData does.
extension BackingStorage {
    /// The models a relationship slot refers to (loaded identifiers resolved through the context).
    package func relatedModels(at slot: Int) -> [any PersistentModel] {
        let stored = value(at: slot)
        if let unresolved = UnresolvedRelationship.of(stored) {
            guard let context, let identifiers = unresolved.identifiers else { return [] }
            return identifiers.compactMap { context.resolveRelated($0) }
        }
        guard let value = stored.flatMap(unwrapOptional) else { return [] }
        return relationshipModels(in: value, shape: info.properties[slot].shape) ?? []
    }

    /// For a model leaving its context (deleted, or its context is gone): its relationships let
    /// go of their models, and read as they would with no context to resolve them (nil, or
    /// empty). Related models otherwise kept each other alive through their inverses, and such a
    /// graph was never freed.
    package func releaseRelationships() {
        let slots = info.relationshipSlots
        guard !slots.isEmpty else { return }
        // No rollback can reach a model without a context, and dropping the committed
        // values first leaves `values` the only owner of its buffer (the two share it after a
        // save), so it is written in place instead of copied.
        committed = nil
        let released: Any = UnresolvedRelationship(identifiers: nil)
        for slot in slots { values[slot] = released }
    }

    /// Sets a relationship the user assigned, then links or unlinks this model on the other side.
    package func setRelationship(_ newValue: Any, at slot: Int) {
        guard let rule = info.relationshipRule(at: slot), let inverse = rule.inverse, let me = model else {
            setValue(newValue, at: slot)
            // Before the model is known (its initializer's own assignments) the other side cannot
            // be linked yet: ``linkInverses()`` does it on insert. Not for the `nil` every
            // optional relationship starts as.
            if model == nil, !hasUnlinkedInverses, info.relationshipRule(at: slot)?.inverse != nil,
               !relatedModels(at: slot).isEmpty {
                hasUnlinkedInverses = true
            }
            return
        }
        // An unset slot (an initializer's first assignment) relates to nothing yet, and the new
        // models are read from the value given: reading each back out of its slot copied it and
        // checked it for an unresolved identifier (2,000 instructions a read).
        let before = isUnset(slot) ? [] : relatedModels(at: slot)
        setValue(newValue, at: slot)
        let after = unwrapOptional(newValue).flatMap { relationshipModels(in: $0, shape: info.properties[slot].shape) } ?? []
        for old in before where !after.contains(where: { $0 === old }) {
            old.backingStorage?.unlink(me, at: inverse.slot)
        }
        for new in after where !before.contains(where: { $0 === new }) {
            new.backingStorage?.link(me, at: inverse.slot)
        }
    }

    /// Whether `slot` was never set and has nothing to fault in, read in place (``AnyOptionalLayout``).
    private func isUnset(_ slot: Int) -> Bool {
        guard !isFault, AnyOptionalLayout.typeWordMarksNil else { return false }
        return values.withUnsafeBytes { AnyOptionalLayout.isNil(in: $0, at: slot) }
    }

    /// Makes the relationship at `slot` refer to `other` (the inverse side of a change elsewhere).
    package func link(_ other: any PersistentModel, at slot: Int) {
        if case .toMany = info.properties[slot].shape, append(other, at: slot) { return }
        var current = relatedModels(at: slot)
        guard !current.contains(where: { $0 === other }) else { return }
        let rule = info.relationshipRule(at: slot)
        if rule?.isToMany == true {
            current.append(other)
        } else {
            // A to-one that pointed elsewhere: that model loses its link back to this one.
            if let previous = current.first, let back = rule?.inverse, let me = model {
                previous.backingStorage?.unlink(me, at: back.slot)
            }
            current = [other]
        }
        writeRelationship(current, at: slot)
    }

    /// Appends `other` to the to-many at `slot` in place, when the slot already holds an array of
    /// `other`'s own class as declared: `false` (nothing done) for anything else (a fault, values
    /// not resolved yet, unset, a subclass). The general path reads the whole to-many as models,
    /// compares it, converts it back and rescans it for new models, so that each inverse append cost
    /// as much as the to-many (88,000 instructions at 50 elements, and growing).
    private func append(_ other: any PersistentModel, at slot: Int) -> Bool {
        guard !isFault, let stored = values[slot] else { return false }
        func append<Element: PersistentModel>(_ element: Element) -> Bool {
            let property = info.properties[slot]
            let isOptional: Bool
            switch ObjectIdentifier(property.valueType) {
            case ObjectIdentifier([Element].self): isOptional = false
            case ObjectIdentifier([Element]?.self): isOptional = true
            default: return false
            }
            guard type(of: stored) == property.valueType else { return false }
            // The exact type was checked: these casts do not convert element by element.
            guard var array = isOptional ? stored as! [Element]? : stored as? [Element] else { return false }
            guard !Self.holds(array, element) else { return true }
            values[slot] = nil // the slot lets go of its array, so the append below does not copy it
            array.append(element)
            values[slot] = isOptional ? Optional(array) as Any : array as Any
            markChanged(slot)
            context?.backingDidGain(self, element)
            return true
        }
        return append(other)
    }

    /// Whether `array` holds `element` itself. A plain loop over the buffer: `contains(where:)`
    /// in this unspecialized code called a closure through witnesses per element (70 instructions).
    private static func holds<Element: PersistentModel>(_ array: [Element], _ element: Element) -> Bool {
        let target = ObjectIdentifier(element)
        return array.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if ObjectIdentifier(buffer[index]) == target { return true }
                index += 1
            }
            return false
        }
    }

    /// Removes `other` from the relationship at `slot`.
    package func unlink(_ other: any PersistentModel, at slot: Int) {
        let current = relatedModels(at: slot)
        guard current.contains(where: { $0 === other }) else { return }
        writeRelationship(current.filter { $0 !== other }, at: slot)
    }

    /// After insert: every model this one refers to points back to it where the relationship has
    /// an inverse, covering values assigned in the model's initializer (before it had `self`).
    /// Only when a relationship was set before the model was known: setting one afterwards links
    /// at once, and re-linking on insert cost a quarter of inserting a graph.
    package func linkInverses() {
        guard hasUnlinkedInverses, !info.relationshipSlots.isEmpty, let me = model else { return }
        hasUnlinkedInverses = false
        for (slot, rule) in info.relationshipRules {
            guard let inverse = rule.inverse else { continue }
            for related in relatedModels(at: slot) { related.backingStorage?.link(me, at: inverse.slot) }
        }
    }

    private func writeRelationship(_ models: [any PersistentModel], at slot: Int) {
        let property = info.properties[slot]
        guard case .toMany(let destination, _) = property.shape else {
            setValue(models.first as Any, at: slot)
            return
        }
        // Stored as the declared array type, so that reads and later in-place appends (`append`)
        // need no element-by-element conversion.
        func typed<Element: PersistentModel>(_: Element.Type) -> Any? {
            let array = models.compactMap { $0 as? Element }
            guard array.count == models.count else { return nil }
            switch ObjectIdentifier(property.valueType) {
            case ObjectIdentifier([Element].self): return array
            case ObjectIdentifier([Element]?.self): return Optional(array) as Any
            default: return nil
            }
        }
        setValue(typed(destination) ?? models, at: slot)
    }
}
