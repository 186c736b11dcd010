/// The backing data behind every model this library creates (`createBackingData()`, fetches).
package final class ModelBackingData<M: PersistentModel>: BackingStorage, BackingData {
    package typealias Model = M

    package required init(for modelType: M.Type) {
        super.init(info: ModelTypeInfo.of(modelType))
    }

    /// For a caller that already holds `M`'s ``ModelTypeInfo``.
    package required init(info: ModelTypeInfo) {
        // A hierarchy's models all hold the root class's kind of backing data.
        precondition(info.modelType == M.self || info.modelType is M.Type, "ModelBackingData<\(M.self)> given the type info of \(info.modelType)")
        super.init(info: info)
    }

    package var persistentModelID: PersistentIdentifier? {
        get { persistentModelIdentifier }
        set { setIdentifier(newValue) }
    }

    package var metadata: Any { info }

    package override var asBackingData: any BackingData { self }

    private func slot(_ keyPath: AnyKeyPath) -> Int {
        guard let slot = info.slot(for: keyPath) else {
            preconditionFailure("\(keyPath) is not a persisted property of \(info.entityName); only stored properties of a @Model class are.")
        }
        return slot
    }

    private func typed<Value>(_ slot: Int, as _: Value.Type) -> Value {
        // The common attribute types straight from where the values hold them, once loaded.
        if !isFault, let address = InlineAttributes.address(in: values, at: slot, holding: AnyOptionalLayout.typeWord(of: Value.self)) {
            return address.load(as: Value.self)
        }
        let stored = presentValue(at: slot)
        // Slots hold their declared type, so the value is usually exactly a `Value`: taken out of
        // the existential after comparing types, where `as? Value` is a dynamic cast, with the
        // metadata of `Optional<Value>` looked up in this unspecialized code, on every read.
        if holdsExactly(stored, Value.self) { return takeExactly(stored, as: Value.self) }
        return converted(stored, slot, as: Value.self)
    }

    /// Apart, so that `typed` never forms a `Value?`, whose metadata unspecialized code looks up
    /// on entry.
    @inline(never)
    private func converted<Value>(_ stored: Any, _ slot: Int, as _: Value.Type) -> Value {
        guard let value = stored as? Value else { missingValue(slot) }
        return value
    }

    package func getValue<Value>(forKey key: KeyPath<M, Value>) -> Value where Value: Decodable {
        typed(slot(key), as: Value.self)
    }

    package func getValue<Value>(forKey key: KeyPath<M, Value>) -> Value where Value: PersistentModel {
        let slot = slot(key)
        guard let model = resolveToOne(slot) as? Value else { missingValue(slot) }
        return model
    }

    /// A deleted model reads as `nil` here, whether or not the relationship has an inverse that
    /// let go of it (a required to-one has no `nil` to give, and keeps it).
    package func getValue<Value>(forKey key: KeyPath<M, Value?>) -> Value? where Value: PersistentModel {
        guard let model = resolveToOne(slot(key)), model.backingStorage?.state != .deleted else { return nil }
        return model as? Value
    }

    package func getValue<Value, OtherModel>(forKey key: KeyPath<M, Value>) -> Value
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        resolveToMany(slot(key), element: OtherModel.self, as: Value.self)
    }

    package func getValue<Value, OtherModel>(forKey key: KeyPath<M, Value>) -> Value
        where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        resolveToMany(slot(key), element: OtherModel.self, as: Value.self)
    }

    package func getTransformableValue<Value>(forKey key: KeyPath<M, Value>) -> Value {
        typed(slot(key), as: Value.self)
    }

    package func setValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) where Value: Encodable {
        guard !isInitializing else { return }
        setValue(newValue, at: slot(key))
    }

    package func setValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) where Value: PersistentModel {
        guard !isInitializing else { return }
        setRelationship(newValue, at: slot(key))
    }

    package func setValue<Value>(forKey key: KeyPath<M, Value?>, to newValue: Value?) where Value: PersistentModel {
        guard !isInitializing else { return }
        setRelationship(newValue as Any, at: slot(key))
    }

    package func setValue<Value, OtherModel>(forKey key: KeyPath<M, Value>, to newValue: Value)
        where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        guard !isInitializing else { return }
        setRelationship(newValue, at: slot(key))
    }

    package func setValue<Value, OtherModel>(forKey key: KeyPath<M, Value>, to newValue: Value)
        where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        guard !isInitializing else { return }
        setRelationship(newValue, at: slot(key))
    }

    package func setTransformableValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) {
        guard !isInitializing else { return }
        setValue(newValue, at: slot(key))
    }

    /// A to-one value, resolving a loaded identifier to the context's model on first read.
    private func resolveToOne(_ slot: Int) -> (any PersistentModel)? {
        let stored = value(at: slot)
        guard let unresolved = UnresolvedRelationship.of(stored) else {
            guard let value = stored.flatMap(unwrapOptional) else { return nil }
            return relationshipModels(in: value, shape: info.properties[slot].shape)?.first
        }
        let model = unresolved.identifiers?.first.flatMap { context?.resolveRelated($0) }
        values[slot] = model as Any
        committed?[slot] = model as Any
        return model
    }

    private func resolveToMany<Element: PersistentModel, Value>(_ slot: Int, element: Element.Type, as _: Value.Type) -> Value {
        let stored = value(at: slot)
        guard let unresolved = UnresolvedRelationship.of(stored) else {
            guard let value = stored as? Value else { missingValue(slot) }
            return value
        }
        // One store request for all the targets a context does not hold yet, not one per target.
        let models: [Element]? = unresolved.identifiers.map { ids in context?.relatedModels(ids, as: Element.self) ?? [] }
        let resolved: Any = info.properties[slot].isOptional ? models as Any : (models ?? []) as Any
        values[slot] = resolved
        committed?[slot] = resolved
        guard let value = resolved as? Value else { missingValue(slot) }
        return value
    }
}
