import Foundation

/// Fetching through a model class hierarchy: a fetch of `Trip` returns `PersonalTrip`s and
/// `BusinessTrip`s too. Each class's models are fetched as that class (stores keep them apart),
/// then merged, sorted, offset and limited here.
extension ModelContext {
    /// Whether the container's schema has a subentity at all; when not, no fetch looks further.
    var hasInheritance: Bool { container.hasInheritance }

    /// The model classes that inherit from `T`, directly or not, in the container's schema.
    func subclassTypes<T: PersistentModel>(of _: T.Type) -> [any PersistentModel.Type] {
        guard let entity = container.schema.entitiesByName[Schema.entityName(for: T.self)] else { return [] }
        var types: [any PersistentModel.Type] = []
        // By name, so that a hierarchy's models come in the same order on every run.
        var pending = entity.subentities.sorted { $0.name < $1.name }
        while !pending.isEmpty {
            let subentity = pending.removeFirst()
            if let type = subentity.modelType ?? EntityRegistry.modelType(named: subentity.name) { types.append(type) }
            pending += subentity.subentities.sorted { $0.name < $1.name }
        }
        return types
    }

    func fetchIncludingSubclasses<T: PersistentModel>(_ descriptor: FetchDescriptor<T>,
                                                      _ subclasses: [any PersistentModel.Type]) throws -> [T] {
        var own = descriptor
        own.fetchLimit = nil
        own.fetchOffset = nil
        var models = try fetchExactly(own)
        for subclass in subclasses {
            func fetch<S: PersistentModel>(_: S.Type) throws -> [T] {
                var inherited = FetchDescriptor<S>(predicate: descriptor.predicate.map { inheritedPredicate($0, as: S.self) })
                inherited.includePendingChanges = descriptor.includePendingChanges
                inherited.relationshipKeyPathsForPrefetching = []
                return try fetchExactly(inherited).compactMap { $0 as? T }
            }
            models += try fetch(subclass)
        }
        try prefetch(descriptor.relationshipKeyPathsForPrefetching, of: models)
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        return Array(models.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? Int.max))
    }

    func countIncludingSubclasses<T: PersistentModel>(_ descriptor: FetchDescriptor<T>,
                                                      _ subclasses: [any PersistentModel.Type]) throws -> Int {
        if descriptor.fetchLimit != nil || descriptor.fetchOffset != nil { return try fetch(descriptor).count }
        var count = try fetchCountExactly(descriptor)
        for subclass in subclasses {
            func subclassCount<S: PersistentModel>(_: S.Type) throws -> Int {
                var inherited = FetchDescriptor<S>(predicate: descriptor.predicate.map { inheritedPredicate($0, as: S.self) })
                inherited.includePendingChanges = descriptor.includePendingChanges
                return try fetchCountExactly(inherited)
            }
            count += try subclassCount(subclass)
        }
        return count
    }

    /// ``models(for:as:)`` when identifiers of `T` may name `T`'s subclasses: each model is built
    /// as the class its identifier's entity names, and those not held are fetched entity by entity.
    func modelsOfTheirEntities<T: PersistentModel>(for identifiers: [PersistentIdentifier], as _: T.Type) throws -> [T] {
        var missing: [String: Set<PersistentIdentifier>] = [:]
        for identifier in identifiers where registry[identifier] == nil {
            if let values = relatedRows.removeValue(forKey: identifier) {
                materializeAsItsEntity(StoreSlot.Row(identifier: identifier, values: values), else: T.self)
            } else if !identifier.isTemporary {
                missing[identifier.entityName, default: []].insert(identifier)
            }
        }
        for (entityName, wanted) in missing.sorted(by: { $0.key < $1.key }) {
            let type = modelType(named: entityName) ?? T.self
            func load<M: PersistentModel>(_: M.Type) throws { try loadMissing(wanted, as: M.self) }
            try load(type)
        }
        return identifiers.compactMap { registry[$0] as? T }
    }

    private func materializeAsItsEntity<T: PersistentModel>(_ row: StoreSlot.Row, else _: T.Type) {
        let type = modelType(named: row.identifier.entityName) ?? T.self
        func build<M: PersistentModel>(_: M.Type) { _ = materialize(row, as: M.self) }
        build(type)
    }
}

/// A predicate on a subclass's models that holds where `base`, on its superclass, does: a fetch
/// of a superclass asks each subclass's store for its models this way. It translates as `base`
/// on the subclass's model (its properties are the superclass's too); a store that cannot
/// translate `base` so leaves it to the context, which evaluates `base` on the models.
func inheritedPredicate<Base: PersistentModel, Subclass: PersistentModel>(_ base: Predicate<Base>, as _: Subclass.Type) -> Predicate<Subclass> {
    Predicate<Subclass>({ model in InheritedPredicateExpression<Subclass, Base>(model: model, base: base) })
}

/// Evaluates a superclass's predicate on a subclass's model (see `inheritedPredicate(_:as:)`).
struct InheritedPredicateExpression<Subclass: PersistentModel, Base: PersistentModel>: StandardPredicateExpression {
    typealias Output = Bool

    let model: PredicateExpressions.Variable<Subclass>
    let base: Predicate<Base>

    init(model: PredicateExpressions.Variable<Subclass>, base: Predicate<Base>) {
        self.model = model
        self.base = base
    }

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard let upcast = try model.evaluate(bindings) as? Base else { return false }
        return try base.evaluate(upcast)
    }

    /// Never encoded: it only lives inside one context's fetch.
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(base, .init(codingPath: encoder.codingPath, debugDescription: "A predicate inherited from a superclass fetch is not encodable."))
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "A predicate inherited from a superclass fetch is not decodable."))
    }
}

extension InheritedPredicateExpression: QueryTranslatable {
    /// `base`'s tree, its variable standing for the subclass's model.
    func translate(_ state: inout TranslationState) throws -> QueryExpression {
        state.bind(base.variable.key, to: try state.operand(model))
        return try state.translate(base.expression)
    }
}
