extension RelationshipRule {
    /// Calls `body` with each model `stored` refers to, a relationship slot's value as the slot
    /// holds it, when that is exactly the declared type (`M`, `M?`, `[M]` or `[M]?`): true, or
    /// false for a `nil` of an optional. Answers nil, calling nothing, for any other value
    /// (identifiers not resolved yet, subclass arrays, models inside existentials), which
    /// callers read the general way.
    ///
    /// Relationship upkeep, inserting a graph and snapshotting it read related models this way
    /// once per link, instead of unwrapping the value through ``AnyOptional`` and collecting an
    /// array of existentials each time.
    func forEachModel(in stored: Any, _ body: (any PersistentModel) -> Void) -> Bool? {
        func open<Stored>(_ value: Stored) -> Bool? {
            guard Stored.self == valueType else { return nil }
            func visit<M: PersistentModel>(_: M.Type) -> Bool {
                guard UnsafeRuntime.shortcutsEnabled else { return visitByCasting(value, body) }
                // A model class's `M`, `M?`, `[M]` and `[M]?` are each one reference (nil as zero),
                // and an array of a class reads as an array of objects: no metadata of `[M]` is
                // looked up and no element is cast.
                if isToMany {
                    guard let array = unsafeBitCast(value, to: [AnyObject]?.self) else { return false }
                    for object in array { body(unsafeDowncast(object, to: M.self)) }
                    return true
                }
                guard let object = unsafeBitCast(value, to: AnyObject?.self) else { return false }
                body(unsafeDowncast(object, to: M.self))
                return true
            }
            return visit(destination)
        }
        return _openExistential(stored, do: open)
    }

    /// ``forEachModel(in:_:)``'s general path, for a value of exactly the declared type.
    private func visitByCasting(_ value: Any, _ body: (any PersistentModel) -> Void) -> Bool {
        if isToMany {
            guard let array = value as? [any PersistentModel] else { return false }
            array.forEach(body)
            return true
        }
        guard let model = value as? any PersistentModel else { return false }
        body(model)
        return true
    }

    /// The models ``forEachModel(in:_:)`` visits in `stored` (none for a nil), or nil for a value
    /// it does not read.
    func models(in stored: Any) -> [any PersistentModel]? {
        var models: [any PersistentModel] = []
        return forEachModel(in: stored) { models.append($0) } == nil ? nil : models
    }
}

extension RelationshipRule {
    /// The array a to-many slot holds, as objects and without copying its buffer, when the slot
    /// holds exactly the declared `[M]` or `[M]?`; nil for anything else (a nil optional included).
    func objects(in stored: Any) -> [AnyObject]? {
        guard isToMany else { return nil }
        func open<Stored>(_ value: Stored) -> [AnyObject]? {
            guard Stored.self == valueType else { return nil }
            guard UnsafeRuntime.shortcutsEnabled else { return value as Any as? [AnyObject] }
            return unsafeBitCast(value, to: [AnyObject]?.self)
        }
        return _openExistential(stored, do: open)
    }

    /// `objects`, models of the destination type, as the to-many's declared `[M]` or `[M]?`.
    func declaredValue(_ objects: [AnyObject]) -> Any {
        func make<M: PersistentModel>(_: M.Type) -> Any {
            let array = UnsafeRuntime.shortcutsEnabled ? unsafeBitCast(objects, to: [M].self) : objects.compactMap { $0 as? M }
            return ObjectIdentifier(valueType) == ObjectIdentifier([M]?.self) ? Optional(array) as Any : array as Any
        }
        return make(destination)
    }
}
