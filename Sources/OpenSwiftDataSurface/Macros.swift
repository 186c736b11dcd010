import Foundation
import Observation
import OpenSwiftDataCore

/// Turns a class into a persistent model: every stored property becomes an accessor over the
/// model's ``BackingData``, the class conforms to ``PersistentModel`` and `Observable`, and
/// `schemaMetadata` describes its properties.
///
/// ```swift
/// @Model final class Trip {
///     var name: String
///     init(name: String) { self.name = name }
/// }
/// ```
@attached(member, conformances: Observable, PersistentModel, Sendable,
          names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init),
          named(_$observationRegistrar), named(_SwiftDataNoType), named(access), named(withMutation))
@attached(memberAttribute)
@attached(extension, conformances: Observable, PersistentModel, Sendable)
public macro Model() = #externalMacro(module: "OpenSwiftDataMacros", type: "ModelMacro")

/// Attached by ``Model()`` to each persisted stored property; not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`_`))
public macro _PersistedProperty() = #externalMacro(module: "OpenSwiftDataMacros", type: "PersistedPropertyMacro")

/// Attached by ``Model()`` to properties persisted through a value transformer; not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`_`))
public macro _TransformablePersistedProperty() = #externalMacro(module: "OpenSwiftDataMacros", type: "TransformablePersistedPropertyMacro")

/// Customises how a stored property of a ``Model()`` class is persisted.
@attached(peer)
public macro Attribute(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil)
    = #externalMacro(module: "OpenSwiftDataMacros", type: "AttributeMacro")

/// Configures a relationship of a ``Model()`` class: delete rule, inverse, cardinality.
@attached(peer)
public macro Relationship(_ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
                          minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
                          inverse: AnyKeyPath? = nil, hashModifier: String? = nil)
    = #externalMacro(module: "OpenSwiftDataMacros", type: "RelationshipMacro")

/// Excludes a stored property of a ``Model()`` class from persistence. The property needs a default value.
@attached(peer)
public macro Transient() = #externalMacro(module: "OpenSwiftDataMacros", type: "TransientMacro")

/// Declares uniqueness constraints inside a ``Model()`` class: an insert that collides with a saved
/// model updates that model instead (an upsert).
@freestanding(declaration)
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "OpenSwiftDataMacros", type: "UniqueMacro")
    where T: PersistentModel

/// Declares indexes inside a ``Model()`` class.
@freestanding(declaration)
public macro Index<T>(_ indices: Schema.Index<T>.Types<T>...) = #externalMacro(module: "OpenSwiftDataMacros", type: "IndexMacro")
    where T: PersistentModel

/// Declares binary indexes inside a ``Model()`` class.
@freestanding(declaration)
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "OpenSwiftDataMacros", type: "IndexMacro")
    where T: PersistentModel

/// Makes an actor a ``ModelActor`` with its own ``ModelContext``, serialised on a ``DefaultSerialModelExecutor``.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "OpenSwiftDataMacros", type: "ModelActorMacro")
