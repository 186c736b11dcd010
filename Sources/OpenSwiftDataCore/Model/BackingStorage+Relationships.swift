/// Relationship values seen as lists of models, and the in-memory upkeep of inverses: setting one
/// side of a relationship updates the other side at once, before any save, as SwiftData does.
extension BackingStorage {
    /// The models a relationship slot refers to (loaded identifiers resolved through the context).
    package func relatedModels(at slot: Int) -> [any PersistentModel] {
        if let models = declaredModels(at: slot) { return models }
        let stored = value(at: slot)
        if let unresolved = UnresolvedRelationship.of(stored) {
            guard let context, let identifiers = unresolved.identifiers else { return [] }
            return identifiers.compactMap { context.resolveRelated($0) }
        }
        guard let value = stored.flatMap(unwrapOptional) else { return [] }
        return relationshipModels(in: value, shape: info.properties[slot].shape) ?? []
    }

    /// The models at `slot` when it holds its declared type (``RelationshipRule/forEachModel(in:_:)``),
    /// read in place; nil for anything else (unset, a fault, identifiers not resolved yet).
    private func declaredModels(at slot: Int) -> [any PersistentModel]? {
        guard !isFault, let stored = values[slot], let rule = info.relationshipRule(at: slot) else { return nil }
        return rule.models(in: stored)
    }

    /// The models `value` (a value assigned to the relationship of `rule`) refers to.
    private func assignedModels(_ value: Any, rule: RelationshipRule?, slot: Int) -> [any PersistentModel] {
        if let rule, let models = rule.models(in: value) { return models }
        return unwrapOptional(value).flatMap { relationshipModels(in: $0, shape: info.properties[slot].shape) } ?? []
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
    /// A to-many keeps each model once, as SwiftData does: a model assigned twice is kept where
    /// it first appears.
    package func setRelationship(_ assigned: Any, at slot: Int) {
        let rule = info.relationshipRule(at: slot)
        if let rule, !pendingToMany.isEmpty {
            if let before = InPlaceModification.of(values[slot]) {
                finishInPlaceModification(assigned, before: before, rule: rule, at: slot)
                return
            }
            // A plain set after appends in place: the list the set replaces is the one the
            // inverses know once the appends are accounted for.
            if pendingToMany[slot] != nil { checkInverses() }
        }
        let newValue = rule.flatMap { withoutRepeats(assigned, rule: $0, slot: slot) } ?? assigned
        guard let rule, let inverse = rule.inverse, let me = model else {
            setValue(newValue, at: slot)
            // Before the model is known (its initializer's own assignments) the other side cannot
            // be linked yet: ``linkInverses()`` does it on insert. Not for the `nil` every
            // optional relationship starts as.
            if model == nil, !hasUnlinkedInverses, rule?.inverse != nil, !assignedModels(newValue, rule: rule, slot: slot).isEmpty {
                hasUnlinkedInverses = true
            }
            return
        }
        // An unset slot (an initializer's first assignment) relates to nothing yet, and the new
        // models are read from the value given: reading each back out of its slot would copy it and
        // check it for an unresolved identifier.
        let before = isUnset(slot) ? [] : relatedModels(at: slot)
        setValue(newValue, at: slot)
        let after = assignedModels(newValue, rule: rule, slot: slot)
        // Short lists are compared pairwise; long ones by identity sets, so that replacing a list
        // costs time in proportion to its length, not to its square.
        if before.count * after.count <= 256 {
            for old in before where !after.contains(where: { $0 === old }) {
                old.backingStorage?.unlink(me, at: inverse.slot)
            }
            for new in after where !before.contains(where: { $0 === new }) {
                new.backingStorage?.link(me, at: inverse.slot)
            }
            return
        }
        relink(me, at: inverse.slot, before: before.map { $0 as AnyObject }, after: after)
    }

    /// Unlinks `me` from the models of `before` not in `after` and links it to the models of
    /// `after` not in `before`, comparing identity sets.
    func relink(_ me: any PersistentModel, at inverseSlot: Int, before: [AnyObject], after: [any PersistentModel]) {
        let beforeSet = Set(before.map(ObjectIdentifier.init))
        let afterSet = Set(after.map { ObjectIdentifier($0) })
        for old in before where !afterSet.contains(ObjectIdentifier(old)) {
            (old as? any PersistentModel)?.backingStorage?.unlink(me, at: inverseSlot)
        }
        for new in after where !beforeSet.contains(ObjectIdentifier(new)) {
            new.backingStorage?.link(me, at: inverseSlot)
        }
    }

    /// `value`, a to-many's new value, without the models it holds more than once (each kept
    /// where it first appears); nil when it holds none twice.
    func withoutRepeats(_ value: Any, rule: RelationshipRule, slot: Int) -> Any? {
        guard rule.isToMany else { return nil }
        if let objects = rule.objects(in: value) {
            return Self.firstOccurrences(objects).map(rule.declaredValue)
        }
        let models = assignedModels(value, rule: rule, slot: slot)
        guard let kept = Self.firstOccurrences(models.map { $0 as AnyObject }) else { return nil }
        return relationshipValue(kept.compactMap { $0 as? any PersistentModel }, at: slot)
    }

    /// Whether `slot` was never set and has nothing to fault in, read in place (``AnyOptionalLayout``).
    private func isUnset(_ slot: Int) -> Bool {
        guard !isFault, AnyOptionalLayout.typeWordMarksNil else { return false }
        return AnyOptionalLayout.isNil(values, at: slot)
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

    /// Appends `other` to the to-many at `slot` in place, when the slot holds exactly its declared
    /// type (`[M]` or a non-nil `[M]?`) and `other` is an `M`: `false` (nothing done) for anything
    /// else (a fault, values not resolved yet, unset, a subclass). The general path reads the whole
    /// to-many as models, compares it, converts it back and rescans it for new models, so that each
    /// inverse append cost as much as the to-many, more the longer it grew.
    ///
    /// The array is appended to where the slot holds it (``AnyOptionalLayout/holdsArraysInline``):
    /// taking it out and putting it back looks up the metadata of `[M]` and casts the value, and
    /// a copy left alive meanwhile would copy the array.
    private func append(_ other: any PersistentModel, at slot: Int) -> Bool {
        guard !isFault, AnyOptionalLayout.holdsArraysInline, let rule = info.relationshipRule(at: slot), rule.isToMany,
              ObjectIdentifier(type(of: other)) == ObjectIdentifier(rule.destination) else { return false }
        let declared = AnyOptionalLayout.typeWord(of: rule.valueType)
        guard let appended = AnyOptionalLayout.append(other as AnyObject, to: &values, at: slot, holding: declared) else {
            return true // already there
        }
        guard appended else { return false }
        markChanged(slot)
        context?.backingDidGain(self, other)
        return true
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
    /// at once, and re-linking every model on insert was a large part of inserting a graph.
    package func linkInverses() {
        guard hasUnlinkedInverses, !info.relationshipSlots.isEmpty, let me = model else { return }
        hasUnlinkedInverses = false
        for (slot, rule) in info.relationshipRules {
            guard let inverse = rule.inverse else { continue }
            for related in relatedModels(at: slot) { related.backingStorage?.link(me, at: inverse.slot) }
        }
    }

    private func writeRelationship(_ models: [any PersistentModel], at slot: Int) {
        setValue(relationshipValue(models, at: slot), at: slot)
    }

    /// `models` as the relationship at `slot` holds them: a to-many as its declared array type, so
    /// that reads and later in-place appends (`append`) need no element-by-element conversion.
    private func relationshipValue(_ models: [any PersistentModel], at slot: Int) -> Any {
        let property = info.properties[slot]
        guard case .toMany(let destination, _) = property.shape else { return models.first as Any }
        func typed<Element: PersistentModel>(_: Element.Type) -> Any? {
            let array = models.compactMap { $0 as? Element }
            guard array.count == models.count else { return nil }
            switch ObjectIdentifier(property.valueType) {
            case ObjectIdentifier([Element].self): return array
            case ObjectIdentifier([Element]?.self): return Optional(array) as Any
            default: return nil
            }
        }
        return typed(destination) ?? models
    }

    /// Empties the relationship at `slot` after a store-side batch delete removed every model of
    /// its destination, in the values and the committed values alike (see ``forgetDeleted(_:at:)``).
    /// A required to-one has no empty value and keeps what it holds.
    package func forgetEveryModel(at slot: Int) {
        guard let rule = info.relationshipRule(at: slot) else { return }
        let property = info.properties[slot]
        func emptied(_ stored: Any?) -> Any? {
            guard let stored else { return nil }
            if rule.isToMany {
                if let objects = rule.objects(in: stored) { return objects.isEmpty ? nil : rule.declaredValue([]) }
                // A nil optional stays nil; identifiers not read yet become an empty list.
                return UnresolvedRelationship.of(stored) == nil ? nil : rule.declaredValue([])
            }
            guard let optional = property.valueType as? any AnyOptional.Type else { return nil }
            if let models = rule.models(in: stored), models.isEmpty { return nil }
            return optional.nilValue
        }
        if let value = emptied(values[slot]) { values[slot] = value }
        if let value = emptied(committed?[slot]) { committed?[slot] = value }
    }

    /// Drops models a store-side batch delete removed from the relationship at `slot`, from the
    /// values and the committed values alike: the store let go of them already, so this is no
    /// change to save. Only a relationship held as models is looked at; one still held as
    /// identifiers resolves without the deleted ones.
    package func forgetDeleted(_ gone: Set<ObjectIdentifier>, at slot: Int) {
        guard !isFault, let rule = info.relationshipRule(at: slot) else { return }
        func without(_ stored: Any?) -> Any? {
            guard let stored else { return nil }
            // A to-many of its declared type is filtered as the array of objects it is, with no
            // model read out of it or cast back.
            if let objects = rule.objects(in: stored) {
                var kept = objects
                kept.removeAll { gone.contains(ObjectIdentifier($0)) }
                return kept.count == objects.count ? nil : rule.declaredValue(kept)
            }
            guard let models = rule.models(in: stored) else { return nil }
            let kept = models.filter { !gone.contains(ObjectIdentifier($0)) }
            return kept.count == models.count ? nil : relationshipValue(kept, at: slot)
        }
        if let value = without(values[slot]) { values[slot] = value }
        if let value = without(committed?[slot]) { committed?[slot] = value }
    }

    /// `objects` with each object kept where it first appears; nil when none appears twice.
    /// Short lists are compared pairwise, long ones through a set of identities.
    static func firstOccurrences(_ objects: [AnyObject]) -> [AnyObject]? {
        guard objects.count > 1 else { return nil }
        if objects.count <= 16 {
            let repeats = objects.indices.dropFirst().contains { index in
                objects[..<index].contains { $0 === objects[index] }
            }
            guard repeats else { return nil }
        }
        var seen = Set<ObjectIdentifier>(minimumCapacity: objects.count)
        let kept = objects.filter { seen.insert(ObjectIdentifier($0)).inserted }
        return kept.count == objects.count ? nil : kept
    }
}
