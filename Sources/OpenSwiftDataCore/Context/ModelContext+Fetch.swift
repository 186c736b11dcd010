import Foundation

extension ModelContext {
    /// The models matching the descriptor. With `includePendingChanges` (the default), unsaved
    /// inserts and changes that match are included, deleted models are left out, and the combined
    /// result is sorted, offset and limited. When the store throws `preferInMemoryFilter` or
    /// `preferInMemorySort`, the context filters, sorts, offsets and limits itself.
    ///
    /// The result includes the models of `T`'s subclasses in the container's schema.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        if hasInheritance {
            let subclasses = subclassTypes(of: T.self)
            if !subclasses.isEmpty { return try fetchIncludingSubclasses(descriptor, subclasses) }
        }
        return try fetchExactly(descriptor)
    }

    /// ``fetch(_:)`` of the models whose class is exactly `T`.
    func fetchExactly<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let pending = descriptor.includePendingChanges && hasPendingChanges(of: T.self)
        let fetched: FetchOutcome
        if pending {
            var unpaged = descriptor
            unpaged.fetchLimit = nil
            unpaged.fetchOffset = nil
            fetched = try fetchRows(unpaged)
        } else {
            // Not copied: a copy is a generic type lookup and a retain of everything in it.
            fetched = try fetchRows(descriptor)
        }
        registerRelated(fetched.rows.related)
        // A fresh context grows its identity map once, not by doubling (and rehashing) as thousands
        // of fetched models arrive. Not otherwise: the rows may be models it already holds.
        let fresh = registry.isEmpty
        if fresh, let first = fetched.rows.rows.first {
            registry.reserveCapacity(fetched.rows.rows.count, in: first.identifier.scope)
        }
        let info = ModelTypeInfo.of(T.self)
        // A loop over the concrete rows: `map` runs unspecialized here, reading each row through
        // `Collection`'s witnesses and copying it.
        var models: [T] = []
        models.reserveCapacity(fetched.rows.rows.count)
        var mustSort = fetched.sortInMemory && !fetched.rowsSorted
        for row in fetched.rows.rows { models.append(materialize(row, as: T.self, info: info, unknown: fresh)) }
        try prefetch(descriptor.relationshipKeyPathsForPrefetching, of: models)
        if fetched.filterInMemory, !fetched.rowsFiltered, let predicate = descriptor.predicate {
            models = try models.filter { try predicate.evaluate($0) }
        }
        if pending {
            models = try mergePendingChanges(into: models, descriptor: descriptor)
            mustSort = true
        }
        if mustSort, !descriptor.sortBy.isEmpty {
            models.sort(using: descriptor.sortBy)
        }
        if pending || fetched.filterInMemory || fetched.sortInMemory {
            models = Array(models.dropFirst(descriptor.fetchOffset ?? 0).prefix(descriptor.fetchLimit ?? Int.max))
        }
        return models
    }

    /// The number of models matching the descriptor, counted by the store when it can.
    public func fetchCount<T>(_ descriptor: FetchDescriptor<T>) throws -> Int where T: PersistentModel {
        if hasInheritance {
            let subclasses = subclassTypes(of: T.self)
            if !subclasses.isEmpty { return try countIncludingSubclasses(descriptor, subclasses) }
        }
        return try fetchCountExactly(descriptor)
    }

    /// ``fetchCount(_:)`` of the models whose class is exactly `T`.
    func fetchCountExactly<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        if descriptor.includePendingChanges && hasPendingChanges(of: T.self) { return try fetchExactly(descriptor).count }
        do {
            return try container.slot(forEntity: Schema.entityName(for: T.self)).fetchCount(descriptor, editingState: editingState)
        } catch let error as DataStoreError where error == .preferInMemoryFilter || error == .preferInMemorySort {
            return try fetchExactly(descriptor).count
        }
    }

    /// The identifiers of the models matching the descriptor, without building models when the store can.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        if hasInheritance && !subclassTypes(of: T.self).isEmpty { return try fetch(descriptor).map(\.persistentModelID) }
        if descriptor.includePendingChanges && hasPendingChanges(of: T.self) { return try fetch(descriptor).map(\.persistentModelID) }
        do {
            return try container.slot(forEntity: Schema.entityName(for: T.self)).fetchIdentifiers(descriptor, editingState: editingState)
        } catch let error as DataStoreError where error == .preferInMemoryFilter || error == .preferInMemorySort {
            return try fetch(descriptor).map(\.persistentModelID)
        }
    }

    /// The matching models, loaded `batchSize` at a time as the collection is read.
    /// - Throws: ``SwiftDataError/includePendingChangesWithBatchSize`` when the descriptor includes
    ///   pending changes and this context has unsaved changes of `T`.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> where T: PersistentModel {
        if descriptor.includePendingChanges && hasPendingChanges(of: T.self) { throw SwiftDataError.includePendingChangesWithBatchSize }
        let identifiers = try fetchIdentifiers(descriptor)
        return try FetchResultsCollection(count: identifiers.count, batchSize: batchSize) { [self] range in
            try models(for: Array(identifiers[range]), as: T.self)
        }
    }

    /// The matching identifiers, as a batched collection.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<PersistentIdentifier>
        where T: PersistentModel {
        let identifiers = try fetchIdentifiers(descriptor)
        return try FetchResultsCollection(count: identifiers.count, batchSize: batchSize) { Array(identifiers[$0]) }
    }

    /// Calls `block` with each matching model, loading `batchSize` models at a time and releasing
    /// each batch's models after it (unless they have changes).
    /// - Throws: ``PersistenceError`` `.invalidContextState` when a batch leaves unsaved changes and
    ///   `allowEscapingMutations` is false (those models could not be released).
    public func enumerate<T>(_ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
                             block: (_ model: T) throws -> Void) throws where T: PersistentModel {
        let identifiers = try fetchIdentifiers(fetch)
        let batchSize = max(1, batchSize)
        for start in stride(from: 0, to: identifiers.count, by: batchSize) {
            let batch = Array(identifiers[start..<min(identifiers.count, start + batchSize)])
            let alreadyRegistered = Set(batch.filter { registry[$0] != nil })
            for model in try models(for: batch, as: T.self) { try block(model) }
            if !allowEscapingMutations && hasChanges {
                throw PersistenceError(.invalidContextState, "enumerate(_:) left unsaved changes after a batch; save inside the block, or pass allowEscapingMutations: true.")
            }
            for identifier in batch where !alreadyRegistered.contains(identifier) {
                guard let storage = registry[identifier]?.backingStorage, !hasPendingChange(storage) else { continue }
                registry.removeValue(forKey: identifier)
            }
        }
    }

    /// The registered model for the identifier; otherwise the model loaded from its store; otherwise
    /// a model whose values load on first access (a fault). Never `nil`, as in SwiftData.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        if let model = registry[persistentModelID] { return model }
        guard let type = modelType(named: persistentModelID.entityName) else {
            preconditionFailure("model(for:) got an identifier of entity '\(persistentModelID.entityName)', which is not in this container's schema.")
        }
        func fault<M: PersistentModel>(_: M.Type) -> any PersistentModel {
            let backing = ModelTypeInfo.of(M.self).makeBacking(as: M.self)
            backing.setIdentifier(persistentModelID)
            let model = register(backing, as: M.self)
            if !persistentModelID.isTemporary {
                backing.isFault = true
                // Loaded now when the store has it, so the model does not depend on this context
                // staying alive; it stays a fault only when the store cannot produce it yet.
                fulfillFault(backing)
            }
            return model
        }
        return fault(type)
    }

    // MARK: - Internals shared by the fetch paths

    func hasPendingChanges<T: PersistentModel>(of _: T.Type) -> Bool {
        // Without pending changes (most fetches) the entity's name is not worked out.
        if inserted.isEmpty && changed.isEmpty && deleted.isEmpty { return false }
        return hasPendingChanges(ofEntity: Schema.entityName(for: T.self))
    }

    func hasPendingChanges(ofEntity entityName: String) -> Bool {
        if inserted.isEmpty && changed.isEmpty && deleted.isEmpty { return false }
        let matches = { (storage: BackingStorage) in storage.info.entityName == entityName }
        return inserted.contains(where: matches) || changed.contains(where: matches) || deleted.contains(where: matches)
    }

    struct FetchOutcome {
        var rows: StoreSlot.FetchedRows
        var filterInMemory: Bool
        var sortInMemory: Bool
        /// Whether the rows are those the predicate keeps already, though the store sent it back.
        var rowsFiltered = false
        /// Whether the rows are in the descriptor's order already, though the store sent the sort back.
        var rowsSorted = false
    }

    /// Asks the store, dropping the parts it asks the context to do itself. The rows of a filter
    /// or sort sent back are narrowed and ordered (``sentBackRows(_:_:filter:sort:info:)``) before
    /// they are read into slot form.
    func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> FetchOutcome {
        let slot = try container.slot(forEntity: Schema.entityName(for: T.self))
        var filterInMemory = false
        var sortInMemory = false
        var rowsFiltered = false
        var rowsSorted = false
        // The descriptor as it is, or without what the store left to the context.
        func attempt() throws -> StoreSlot.FetchedRows {
            guard filterInMemory || sortInMemory else { return try slot.fetch(descriptor, editingState: editingState) }
            var attempt = descriptor
            if filterInMemory { attempt.predicate = nil }
            if sortInMemory { attempt.sortBy = [] }
            attempt.fetchLimit = nil
            attempt.fetchOffset = nil
            let (filter, sort) = (filterInMemory, sortInMemory)
            return try slot.fetch(attempt, editingState: editingState) { rows in
                let sentBack = sentBackRows(rows, descriptor, filter: filter, sort: sort, info: ModelTypeInfo.of(T.self))
                rowsFiltered = sentBack.filtered
                rowsSorted = sentBack.sorted
                return sentBack.rows
            }
        }
        while true {
            do {
                let rows = try attempt()
                return FetchOutcome(rows: rows, filterInMemory: filterInMemory, sortInMemory: sortInMemory,
                                    rowsFiltered: rowsFiltered, rowsSorted: rowsSorted)
            } catch DataStoreError.preferInMemoryFilter where !filterInMemory && descriptor.predicate != nil {
                filterInMemory = true
            } catch DataStoreError.preferInMemorySort where !sortInMemory && !descriptor.sortBy.isEmpty {
                sortInMemory = true
            }
        }
    }

    private func mergePendingChanges<T: PersistentModel>(into models: [T], descriptor: FetchDescriptor<T>) throws -> [T] {
        let matches = { (model: T) throws -> Bool in try descriptor.predicate?.evaluate(model) ?? true }
        var result: [T] = []
        var seen: Set<ObjectIdentifier> = []
        for model in models {
            guard let storage = model.backingStorage, !deleted.contains(storage) else { continue }
            if changed.contains(storage), try !matches(model) { continue }
            if seen.insert(ObjectIdentifier(model)).inserted { result.append(model) }
        }
        // Exactly `T`s: the models of subclasses are merged by their own fetches.
        for model in (inserted.models + changed.models).compactMap({ type(of: $0) == T.self ? $0 as? T : nil }) where !seen.contains(ObjectIdentifier(model)) {
            if try matches(model) {
                seen.insert(ObjectIdentifier(model))
                result.append(model)
            }
        }
        return result
    }

    /// Loads the targets of the given relationships for all `models` at once: one store request per
    /// relationship, so that reading them afterwards costs no query per model.
    func prefetch<T: PersistentModel>(_ keyPaths: [PartialKeyPath<T>], of models: [T]) throws {
        // Most fetches prefetch nothing: no type lookups for them. By `count`: `isEmpty` goes
        // through `Collection` with the array type looked up.
        guard keyPaths.count > 0 else { return }
        let info = ModelTypeInfo.of(T.self)
        for keyPath in keyPaths {
            guard let slot = info.slot(for: keyPath) else { throw SwiftDataError.unsupportedKeyPath }
            let destination: any PersistentModel.Type
            switch info.properties[slot].shape {
            case .toOne(let type, _), .toMany(let type, _): destination = type
            case .attribute: continue
            }
            var wanted: [PersistentIdentifier] = []
            for model in models {
                guard let unresolved = model.backingStorage?.values[slot] as? BackingStorage.UnresolvedRelationship else { continue }
                wanted += unresolved.identifiers ?? []
            }
            func load<M: PersistentModel>(_: M.Type) throws { _ = try self.models(for: wanted, as: M.self) }
            try load(destination)
        }
    }

    /// The related models for identifiers a relationship holds, loaded in one request; those the
    /// store no longer has are left out.
    func relatedModels<M: PersistentModel>(_ identifiers: [PersistentIdentifier], as _: M.Type) -> [M] {
        if let models = try? models(for: identifiers, as: M.self) { return models }
        return identifiers.compactMap { resolveRelated($0) as? M }
    }

    /// The models for identifiers, in the identifiers' order: registered ones as they are, the rest
    /// from snapshots a store sent along earlier or fetched from the store in one request.
    func models<T: PersistentModel>(for identifiers: [PersistentIdentifier], as _: T.Type) throws -> [T] {
        if hasInheritance { return try modelsOfTheirEntities(for: identifiers, as: T.self) }
        for identifier in identifiers where registry[identifier] == nil {
            guard let values = relatedRows.removeValue(forKey: identifier) else { continue }
            _ = materialize(StoreSlot.Row(identifier: identifier, values: values), as: T.self)
        }
        let missing = Set(identifiers.filter { registry[$0] == nil && !$0.isTemporary })
        try loadMissing(missing, as: T.self)
        return identifiers.compactMap { registry[$0] as? T }
    }

    /// Fetches the models of these identifiers, all of entity `T`, and registers them.
    func loadMissing<T: PersistentModel>(_ missing: Set<PersistentIdentifier>, as _: T.Type) throws {
        guard !missing.isEmpty else { return }
        let fetched = try fetchRows(FetchDescriptor<T>(predicate: #Predicate<T> { missing.contains($0.persistentModelID) }))
        registerRelated(fetched.rows.related)
        for row in fetched.rows.rows where missing.contains(row.identifier) { _ = materialize(row, as: T.self) }
    }

    /// The registered model for a row, refreshed with the row's values unless it has pending
    /// changes; or a new model built from the row.
    /// `info`: `T`'s, when the caller looked it up once for many rows, sparing a lookup per model.
    /// - Parameter unknown: the context held no model when the fetch began, so a row's model is
    ///   new unless the store sent the same row twice: the identity map is written without being
    ///   looked up first (one hash instead of two).
    func materialize<T: PersistentModel>(_ row: StoreSlot.Row, as _: T.Type, info: ModelTypeInfo? = nil, unknown: Bool = false) -> T {
        if !unknown, let existing = registered(row, as: T.self) { return existing }
        // Not `info.map { … }`: that is a generic closure per row here.
        let backing = (info ?? ModelTypeInfo.of(T.self)).makeBacking(as: T.self)
        backing.setIdentifier(row.identifier)
        let model = BackingAdoption.offering(backing) { T(backingData: BackingAdoption.typed(backing, as: T.self)) }
        if let previous = registry.updateValue(model, forKey: row.identifier), let existing = refreshed(previous, with: row, as: T.self) {
            // A row sent twice: the first one's model stays the registered one.
            registry[row.identifier] = existing
            return existing
        }
        join(backing, model)
        // After the initializer, which writes the optional properties' implicit `nil` defaults.
        backing.load(row.values)
        return model
    }

    /// Builds the model around `backing` and registers it.
    private func register<M: PersistentModel>(_ backing: ModelBackingData<M.Root>, as _: M.Type) -> M {
        let model = BackingAdoption.offering(backing) { M(backingData: BackingAdoption.typed(backing, as: M.self)) }
        registry[backing.persistentModelIdentifier] = model
        join(backing, model)
        return model
    }

    /// Ties `backing` to this context once its model's initializer has run: the default values the
    /// initializer wrote into it (see ``BackingAdoption``) are then not changes.
    private func join(_ backing: BackingStorage, _ model: any PersistentModel) {
        backing.context = self
        backing.state = .registered
        backing.model = model
    }

    /// The registered model for `row`, refreshed with its values unless it has changes of its own.
    private func registered<T: PersistentModel>(_ row: StoreSlot.Row, as _: T.Type) -> T? {
        // Not `Optional.flatMap`: that is a generic closure per row here.
        guard let model = registry[row.identifier] else { return nil }
        return refreshed(model, with: row, as: T.self)
    }

    /// `model` as a `T`, loaded with `row`'s values unless it has changes of its own.
    private func refreshed<T: PersistentModel>(_ model: any PersistentModel, with row: StoreSlot.Row, as _: T.Type) -> T? {
        guard let existing = model as? T, let storage = existing.backingStorage else { return nil }
        if storage.isFault || !hasPendingChange(storage) { storage.load(row.values) }
        return existing
    }

    func registerRelated(_ rows: [StoreSlot.Row]) {
        for row in rows where registry[row.identifier] == nil { relatedRows[row.identifier] = row.values }
    }

    func modelType(named entityName: String) -> (any PersistentModel.Type)? {
        container.schema.entitiesByName[entityName]?.modelType ?? EntityRegistry.modelType(named: entityName)
    }

    /// Loads a fault's values: from the snapshots a store sent along earlier, else from the store.
    func fulfillFault(_ storage: BackingStorage) {
        let identifier = storage.persistentModelIdentifier
        if let values = relatedRows.removeValue(forKey: identifier) {
            storage.load(values)
            return
        }
        func load<M: PersistentModel>(_: M.Type) {
            let wanted: Set<PersistentIdentifier> = [identifier]
            // Cleared first: the fetch below registers rows, and must not re-enter this fault.
            storage.isFault = false
            guard let fetched = try? fetchRows(FetchDescriptor<M>(predicate: #Predicate<M> { wanted.contains($0.persistentModelID) })),
                  let row = fetched.rows.rows.first(where: { $0.identifier == identifier }) else { return }
            storage.load(row.values)
        }
        load(storage.info.modelType)
    }

    /// The model a relationship refers to: registered, sent along by the store, or loaded on
    /// access; `nil` when the store no longer holds it (a to-one without an inverse whose target
    /// was deleted), rather than a model with no values.
    func resolveRelated(_ identifier: PersistentIdentifier) -> (any PersistentModel)? {
        if let model = registry[identifier] { return model }
        guard let type = modelType(named: identifier.entityName) else { return nil }
        func load<M: PersistentModel>(_: M.Type) -> (any PersistentModel)? {
            (try? models(for: [identifier], as: M.self))?.first
        }
        return load(type)
    }
}
