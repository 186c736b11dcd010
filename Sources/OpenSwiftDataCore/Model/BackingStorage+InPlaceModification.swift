/// A to-many modified in place (`trip.visits.append(visit)`, through the `_modify` accessor
/// `@Model` writes) keeps its inverses and its context up to date by looking only at what the
/// modification appended. A get and a set would copy the whole array for each append, and
/// comparing the whole list with the one before made building a graph one model at a time
/// quadratic in the list's length.
///
/// While the modification runs, the slot holds an ``InPlaceModification`` instead of the array,
/// so that the array the accessor yields is its only owner and grows in place. Afterwards, an
/// array that kept its first elements and grew is taken to have been appended to: the appended
/// models join the context and link back at once. Any other change is compared with the list as
/// it was (the ``PendingToMany`` base) at once, and appends are compared with it when the context
/// saves, so that no mutation escapes the inverse upkeep.
extension BackingStorage {
    /// What a slot held before an in-place modification: its length and its first and last models.
    struct InPlaceModification {
        let count: Int
        let first: ObjectIdentifier?
        let last: ObjectIdentifier?

        static func of(_ stored: Any?) -> InPlaceModification? {
            guard let stored, holdsExactly(stored, InPlaceModification.self) else { return nil }
            return takeExactly(stored, as: InPlaceModification.self)
        }
    }

    /// A to-many modified in place since its inverses were last compared in full: the list as it
    /// was then, and the models appended since.
    final class PendingToMany {
        let base: [AnyObject]
        var appended: [AnyObject] = []

        init(base: [AnyObject]) { self.base = base }
    }

    /// Called before the to-many at `slot` is modified in place: takes the array out of the slot
    /// when the slot holds its declared type; otherwise the modification works on a copy and the
    /// set that ends it compares the whole list, as a plain set does.
    package func beginInPlaceModification(at slot: Int) {
        guard !isFault, let rule = info.relationshipRule(at: slot), let stored = values[slot],
              let objects = rule.objects(in: stored) else { return }
        if pendingToMany[slot] == nil {
            pendingToMany[slot] = PendingToMany(base: objects)
            context?.awaitInverseCheck(self)
        }
        values[slot] = InPlaceModification(count: objects.count, first: objects.first.map(ObjectIdentifier.init),
                                           last: objects.last.map(ObjectIdentifier.init))
    }

    /// Ends an in-place modification of the to-many at `slot` with its new value.
    func finishInPlaceModification(_ newValue: Any, before: InPlaceModification, rule: RelationshipRule, at slot: Int) {
        values[slot] = newValue
        markChanged(slot)
        guard let objects = rule.objects(in: newValue), let pending = pendingToMany[slot],
              objects.count >= before.count, before.count == 0
                || (ObjectIdentifier(objects[0]) == before.first && ObjectIdentifier(objects[before.count - 1]) == before.last) else {
            if let unique = withoutRepeats(newValue, rule: rule, slot: slot) { values[slot] = unique }
            context?.backingDidChange(self, slot: slot)
            checkInverses(at: slot)
            return
        }
        context?.backingDidChange(self, slot: slot, insertingRelated: false)
        guard objects.count > before.count else { return }
        let me = model
        // Before the model is known its inverses wait for ``linkInverses()``, as a set's do.
        if me == nil, rule.inverse != nil { hasUnlinkedInverses = true }
        var repeats: [Int] = []
        for index in before.count..<objects.count {
            let object = objects[index]
            // A model the list holds already stays where it was, as SwiftData keeps each once.
            if isRepeat(objects, at: index, rule: rule) {
                repeats.append(index)
                continue
            }
            pending.appended.append(object)
            guard let added = object as? any PersistentModel, let addedStorage = added.backingStorage else { continue }
            if addedStorage.context == nil { context?.insert(added) }
            if let inverse = rule.inverse, let me { addedStorage.link(me, at: inverse.slot) }
        }
        guard !repeats.isEmpty else { return }
        var kept = objects
        for index in repeats.reversed() { kept.remove(at: index) }
        values[slot] = rule.declaredValue(kept)
    }

    /// Whether `objects[index]`, appended in place, is among the models before it. A model new
    /// to the context cannot be (the models a registered model refers to are in its context),
    /// nor can one whose to-one inverse, linked, points elsewhere: appending a new model stays
    /// constant time. Any other model is looked for.
    private func isRepeat(_ objects: [AnyObject], at index: Int, rule: RelationshipRule) -> Bool {
        let object = objects[index]
        if let added = (object as? any PersistentModel)?.backingStorage {
            if context != nil, added.context == nil { return false }
            if let inverse = rule.inverse, let me = model, !hasUnlinkedInverses, !added.isFault,
               inverse.info.relationshipRule(at: inverse.slot)?.isToMany == false,
               added.relatedModels(at: inverse.slot).first !== me {
                return false
            }
        }
        return objects[..<index].contains { $0 === object }
    }

    /// Compares every to-many modified in place since its last check with the list it started
    /// from, linking and unlinking what the appends alone did not account for.
    func checkInverses() {
        for slot in pendingToMany.keys.sorted() { checkInverses(at: slot) }
    }

    private func checkInverses(at slot: Int) {
        guard let pending = pendingToMany.removeValue(forKey: slot) else { return }
        guard let rule = info.relationshipRule(at: slot), let me = model else { return }
        let after = relatedModels(at: slot)
        if let context {
            for model in after where model.backingStorage?.context == nil { context.insert(model) }
        }
        guard let inverse = rule.inverse else { return }
        relink(me, at: inverse.slot, before: pending.base + pending.appended, after: after)
    }
}
