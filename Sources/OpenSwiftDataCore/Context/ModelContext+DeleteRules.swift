extension PersistenceError.Code {
    /// A delete was refused by a relationship whose delete rule is `.deny`.
    public static let deleteDenied = PersistenceError.Code(rawValue: "deleteDenied")
    /// A to-many relationship holds fewer or more models than its minimum or maximum count.
    public static let relationshipCountOutOfRange = PersistenceError.Code(rawValue: "relationshipCountOutOfRange")
}

extension ModelContext {
    /// Runs before a save: cascades deletes (transitively), refuses the save when a `.deny`
    /// relationship still refers to surviving models, checks to-many counts, and only then nullifies
    /// the surviving models' links to deleted ones. Nothing changes when it throws.
    func applyRelationshipRules() throws {
        let doomed = cascadeClosure(of: deleted.models)
        let doomedSet = Set(doomed.compactMap { $0.backingStorage.map(ObjectIdentifier.init) })
        let survives = { (model: any PersistentModel) in !doomedSet.contains(model.backingStorage.map(ObjectIdentifier.init) ?? ObjectIdentifier(model)) }
        try refuseDeniedDeletes(of: doomed, survives: survives)
        // Only models with relationships have counts to check; looked for first, unordered, so a
        // save of plain models neither sorts nor walks them here.
        let hasRelationships = { (storage: BackingStorage) in !storage.info.relationshipSlots.isEmpty }
        if inserted.contains(where: hasRelationships) || changed.contains(where: hasRelationships) {
            for model in inserted.models + changed.models where survives(model) {
                try validateCounts(of: model, ignoring: survives)
            }
        }
        for model in doomed where !deleted.contains(model.backingStorage!) { delete(model) }
        for model in doomed {
            guard let storage = model.backingStorage else { continue }
            for (slot, rule) in storage.info.relationshipRules {
                guard let inverse = rule.inverse, rule.deleteRule != .noAction else { continue }
                for related in storage.relatedModels(at: slot) where survives(related) {
                    related.backingStorage?.unlink(model, at: inverse.slot)
                }
            }
        }
    }

    /// Throws ``PersistenceError/Code/deleteDenied`` when a `.deny` relationship of a model in
    /// `doomed` still refers to a model that `survives`.
    func refuseDeniedDeletes(of doomed: [any PersistentModel], survives: (any PersistentModel) -> Bool) throws {
        for model in doomed {
            guard let storage = model.backingStorage else { continue }
            for (slot, rule) in storage.info.relationshipRules.sorted(by: { $0.key < $1.key }) where rule.deleteRule == .deny {
                let blocking = storage.relatedModels(at: slot).filter { $0.backingStorage?.state != .deleted && survives($0) }
                guard !blocking.isEmpty else { continue }
                throw PersistenceError(.deleteDenied, """
                    \(storage.info.entityName) \(storage.persistentModelIdentifier) cannot be deleted: its relationship \
                    '\(rule.name)' has delete rule .deny and still refers to \(blocking.count) \
                    \(blocking.count == 1 ? "model" : "models"); remove them from '\(rule.name)' or delete them first.
                    """)
            }
        }
    }

    /// Deletes `model` and, transitively, the targets of its `.cascade` relationships, after
    /// removing each of them from the relationships of the models that survive (`.nullify` and
    /// `.cascade` rules with an inverse). Relationships under `.deny` keep their targets for the
    /// save to refuse; `.noAction` leaves them as they are.
    func deleteApplyingRules(_ model: any PersistentModel) {
        let doomed = cascadeClosure(of: [model])
        let doomedSet = Set(doomed.compactMap { $0.backingStorage.map(ObjectIdentifier.init) })
        for victim in doomed {
            guard let storage = victim.backingStorage else { continue }
            for (slot, rule) in storage.info.relationshipRules {
                guard let inverse = rule.inverse, rule.deleteRule == .nullify || rule.deleteRule == .cascade else { continue }
                for related in storage.relatedModels(at: slot) {
                    guard let relatedStorage = related.backingStorage, relatedStorage.state != .deleted,
                          !doomedSet.contains(ObjectIdentifier(relatedStorage)) else { continue }
                    relatedStorage.unlink(victim, at: inverse.slot)
                }
            }
        }
        for victim in doomed {
            guard let storage = victim.backingStorage, storage.context === self, storage.state != .deleted else { continue }
            markDeleted(victim, storage: storage)
        }
    }

    /// The models to delete: the given ones and, transitively, the targets of their `.cascade`
    /// relationships that are not deleted already.
    func cascadeClosure(of models: [any PersistentModel]) -> [any PersistentModel] {
        var result = models
        var seen = Set(models.compactMap { $0.backingStorage.map(ObjectIdentifier.init) })
        var index = 0
        while index < result.count {
            defer { index += 1 }
            guard let storage = result[index].backingStorage else { continue }
            for (slot, rule) in storage.info.relationshipRules where rule.deleteRule == .cascade {
                for related in storage.relatedModels(at: slot) {
                    guard let relatedStorage = related.backingStorage, relatedStorage.state != .deleted,
                          seen.insert(ObjectIdentifier(relatedStorage)).inserted else { continue }
                    result.append(related)
                }
            }
        }
        return result
    }

    private func validateCounts(of model: any PersistentModel, ignoring survives: (any PersistentModel) -> Bool) throws {
        guard let storage = model.backingStorage else { return }
        for rule in storage.info.countedRelationshipRules {
            let minimum = rule.minimumModelCount ?? 0
            let maximum = rule.maximumModelCount ?? 0
            let count = storage.relatedModels(at: rule.slot).filter(survives).count
            if count < minimum || (maximum > 0 && count > maximum) {
                let bounds = maximum > 0 ? "between \(minimum) and \(maximum)" : "at least \(minimum)"
                throw PersistenceError(.relationshipCountOutOfRange, """
                    \(storage.info.entityName).\(rule.name) holds \(count) \(count == 1 ? "model" : "models"); \
                    it must hold \(bounds). Change the relationship, then save again.
                    """)
            }
        }
    }
}
