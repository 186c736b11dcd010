/// One stored model as a ``DataStoreRowAccess`` store hands it to a context: its identifier and
/// the values of its persisted properties, one per property, in the order of its
/// ``DataStoreRowLayout``.
///
/// Each value is what a ``DefaultSnapshot`` of the model holds for the property:
/// - an attribute: a value of the property's declared type (an optional property's `Optional`),
///   or another `Codable` value that converts to it (a `String` raw value for an enum);
/// - a to-one relationship: the related model's `PersistentIdentifier`, or `nil`;
/// - a to-many relationship: a `[PersistentIdentifier]` (`nil` only for an optional one), or a
///   ``DataStoreDeferredToMany/Reference`` whose identifiers are read when the relationship is;
/// - `nil` for a property the store knows nothing about, which the model then reads as unset.
public struct DataStoreRow: @unchecked Sendable {
    /// The stored model's identifier.
    public var persistentIdentifier: PersistentIdentifier
    /// The model's persisted values, in the order of its ``DataStoreRowLayout``.
    public var values: [Any?]

    /// Creates a row of a model's identifier and its values in layout order.
    public init(persistentIdentifier: PersistentIdentifier, values: [Any?]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    package init(identifier: PersistentIdentifier, values: [Any?]) {
        self.init(persistentIdentifier: identifier, values: values)
    }

    package var identifier: PersistentIdentifier { persistentIdentifier }
}

/// Where each persisted property of a model type sits in a ``DataStoreRow``: the order the
/// `@Model` class declares its persisted properties in (its `schemaMetadata`), relationships
/// included, `@Transient` ones left out.
///
/// ```swift
/// @Model final class Note {
///     var title: String
///     @Transient var isSelected = false
///     var tags: [Tag] = []
/// }
/// let layout = DataStoreRowLayout(for: Note.self)
/// layout.propertyNames                // ["title", "tags"]
/// let row = DataStoreRow(persistentIdentifier: snapshot.persistentIdentifier, values: layout.values(of: snapshot))
/// ```
public struct DataStoreRowLayout: Sendable {
    package let info: ModelTypeInfo

    /// The layout of a model type's rows.
    public init(for modelType: any PersistentModel.Type) {
        info = ModelTypeInfo.of(modelType)
    }

    /// The layout of the model type named `entityName` in a `Schema` of this process; nil when
    /// no schema holds that entity.
    public init?(entityName: String) {
        guard let modelType = EntityRegistry.modelType(named: entityName) else { return nil }
        self.init(for: modelType)
    }

    /// The name of the entity the layout describes.
    public var entityName: String { info.entityName }

    /// The persisted properties' names, in row order.
    public var propertyNames: [String] { info.properties.map(\.name) }

    /// The position of a property in a row; nil when the model has no persisted property of that name.
    public func index(ofProperty name: String) -> Int? { info.slot(named: name) }

    /// A snapshot's values in row order. A snapshot a context made from a model is in that
    /// order already and is handed over as it is, with no copy; any other is read by name.
    public func values(of snapshot: DefaultSnapshot) -> [Any?] {
        snapshot.values.slots(for: info) ?? info.properties.map { snapshot.values[$0.name]?.value }
    }

    /// Snapshots of this layout's model type as rows, in the same order.
    public func rows(of snapshots: [DefaultSnapshot]) -> [DataStoreRow] {
        var rows: [DataStoreRow] = []
        rows.reserveCapacity(snapshots.count)
        // By index: a `for` over the snapshots copied each one whole, retaining all it holds.
        for index in snapshots.indices {
            let values = snapshots[index].values.slots(for: info) ?? values(of: snapshots[index])
            rows.append(DataStoreRow(persistentIdentifier: snapshots[index].persistentIdentifier, values: values))
        }
        return rows
    }
}
