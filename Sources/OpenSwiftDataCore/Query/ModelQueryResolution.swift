import Synchronization

/// The key-path resolutions of a model type, for ``QueryTranslator``: attributes by their query
/// kind, relationships by their destination, and `\.persistentModelID` as the row's identifier.
/// Stores that keep snapshots (in memory, JSON) use it as is; the SQLite store adds its own limits.
package enum ModelQueryResolution {
    package static func resolutions(for info: ModelTypeInfo) -> [AnyKeyPath: QueryKeyPathResolution] {
        var resolutions: [AnyKeyPath: QueryKeyPathResolution] = [identifierKeyPath(of: info.modelType): .identifier]
        for property in info.properties {
            switch property.shape {
            case .toOne(let destination, let optional):
                resolutions[property.keyPath] = .relationship(name: property.name, destination: String(describing: destination),
                                                              isToMany: false, isOptional: optional)
            case .toMany(let destination, let optional):
                resolutions[property.keyPath] = .relationship(name: property.name, destination: String(describing: destination),
                                                              isToMany: true, isOptional: optional)
            case .attribute:
                // A `.codable` attribute is opaque to queries: a predicate or sort on it is refused.
                if (property.metadata as? Schema.Attribute)?.isCodable == true { continue }
                guard let type = QueryValueType(swiftType: property.valueType) else { continue }
                resolutions[property.keyPath] = .attribute(name: property.name, kind: type.kind, isOptional: type.isOptional)
            }
        }
        return resolutions
    }

    /// A translator that knows the model type and every type it refers to; built once per type,
    /// since every store that runs queries over snapshots asks for it on each fetch.
    package static func translator(for modelType: any PersistentModel.Type) -> QueryTranslator {
        let key = ObjectIdentifier(modelType)
        if let known = translators.withLock({ $0[key] }) { return known }
        // Built outside the lock: building walks the schema, which runs the models' own code.
        let made = makeTranslator(for: modelType)
        return translators.withLock { cache in
            if let known = cache[key] { return known }
            cache[key] = made
            return made
        }
    }

    private static let translators = Mutex<[ObjectIdentifier: QueryTranslator]>([:])

    /// A translator that knows every model type of `schema`, subclasses included, so that a
    /// predicate's `as?` may read a subclass's properties; a store builds it once.
    package static func translator(for schema: Schema) -> QueryTranslator {
        makeTranslator(for: schema.entities)
    }

    private static func makeTranslator(for modelType: any PersistentModel.Type) -> QueryTranslator {
        makeTranslator(for: Schema([modelType]).entities)
    }

    private static func makeTranslator(for entities: [Schema.Entity]) -> QueryTranslator {
        var resolutions: [AnyKeyPath: QueryKeyPathResolution] = [:]
        for entity in entities {
            guard let type = entity.modelType else { continue }
            resolutions.merge(self.resolutions(for: ModelTypeInfo.of(type))) { first, _ in first }
        }
        let table = ResolutionTable(resolutions)
        return QueryTranslator { table.resolutions[$0] }
    }

    /// `\T.persistentModelID`, built for the model type at hand.
    package static func identifierKeyPath(of type: any PersistentModel.Type) -> AnyKeyPath {
        func make<T: PersistentModel>(_: T.Type) -> AnyKeyPath { \T.persistentModelID }
        return make(type)
    }
}

/// Key paths are immutable values; `AnyKeyPath` is only missing the `Sendable` annotation.
private final class ResolutionTable: @unchecked Sendable {
    let resolutions: [AnyKeyPath: QueryKeyPathResolution]
    init(_ resolutions: [AnyKeyPath: QueryKeyPathResolution]) { self.resolutions = resolutions }
}

extension DataStoreQuery {
    /// The store-neutral form of a fetch descriptor, its key paths resolved from the model's own
    /// declarations (attributes by their query kind, relationships by their destination,
    /// `\.persistentModelID` as the identifier): what a custom store runs with
    /// ``SnapshotQueryEngine``, renders as SQL, or sends over the wire.
    /// - Throws: `DataStoreError.preferInMemoryFilter` (or `.preferInMemorySort`) for a predicate or
    ///   sort that has no store-neutral form; throw it on from `fetch`, and the context runs it.
    public init<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws {
        try self.init(descriptor, translator: ModelQueryResolution.translator(for: T.self))
    }

    /// The store-neutral form of a fetch descriptor, or the `DataStoreError` that sends the part a
    /// store cannot do back to the context.
    package init<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, translator: QueryTranslator) throws {
        do {
            self = try translator.translate(entityName: Schema.entityName(for: T.self), predicate: descriptor.predicate,
                                            sortBy: descriptor.sortBy, fetchLimit: descriptor.fetchLimit,
                                            fetchOffset: descriptor.fetchOffset)
        } catch let error as QueryTranslationError {
            throw error.kind == .unsupportedSort ? DataStoreError.preferInMemorySort : DataStoreError.preferInMemoryFilter
        }
    }
}
