/// A sendable, codable copy of one model's values at one moment, keyed by its identifier.
///
/// The context builds one per changed model with `init(from:relatedBackingDatas:)` when it saves,
/// and reads a fetched snapshot back through its `Codable` conformance: `encode(to:)` must write
/// the identifier under ``DataStoreSnapshotCodingKey/persistentIdentifier`` and each property under
/// ``DataStoreSnapshotCodingKey/modeledProperty(_:)`` with the model's property name.
public protocol DataStoreSnapshot: Decodable, Encodable, Sendable {
    /// The identifier of the model the snapshot copies.
    var persistentIdentifier: PersistentIdentifier { get }
    /// Copies a model's values from its backing data; related models' backing data goes into
    /// `relatedBackingDatas`, by identifier.
    init(from: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData])
    /// A copy under another identifier, with the references to inserted models remapped to their
    /// permanent identifiers.
    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?) -> Self
}

/// The key space of snapshot coders: the identifier, then one key per model property.
public enum DataStoreSnapshotCodingKey: CodingKey, CustomStringConvertible, Sendable, Hashable {
    /// The key of the snapshot's identifier.
    case persistentIdentifier
    /// The key of one model property, by its name.
    case modeledProperty(String)

    /// The key's text: `persistentIdentifier` or the property's name.
    public var stringValue: String {
        switch self {
        case .persistentIdentifier: "persistentIdentifier"
        case .modeledProperty(let name): name
        }
    }

    /// The key of this text: the identifier's key for `persistentIdentifier`, a property's otherwise.
    public init?(stringValue: String) {
        self = stringValue == "persistentIdentifier" ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    /// Always `nil`: snapshot keys have no integer form.
    public var intValue: Int? { nil }
    /// Always `nil`: snapshot keys have no integer form.
    public init?(intValue: Int) { nil }
    /// The key's text.
    public var description: String { stringValue }
}

/// A value a snapshot can hold.
public typealias DataStoreSnapshotValue = Codable & Sendable
