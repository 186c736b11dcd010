/// A sendable, codable copy of one model's values at one moment, keyed by its identifier.
///
/// The context builds one per changed model with `init(from:relatedBackingDatas:)` when it saves,
/// and reads a fetched snapshot back through its `Codable` conformance: `encode(to:)` must write
/// the identifier under ``DataStoreSnapshotCodingKey/persistentIdentifier`` and each property under
/// ``DataStoreSnapshotCodingKey/modeledProperty(_:)`` with the model's property name.
public protocol DataStoreSnapshot: Decodable, Encodable, Sendable {
    var persistentIdentifier: PersistentIdentifier { get }
    init(from: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData])
    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?) -> Self
}

/// The key space of snapshot coders: the identifier, then one key per model property.
public enum DataStoreSnapshotCodingKey: CodingKey, CustomStringConvertible, Sendable, Hashable {
    case persistentIdentifier
    case modeledProperty(String)

    public var stringValue: String {
        switch self {
        case .persistentIdentifier: "persistentIdentifier"
        case .modeledProperty(let name): name
        }
    }

    public init?(stringValue: String) {
        self = stringValue == "persistentIdentifier" ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
    public var description: String { stringValue }
}

/// A value a snapshot can hold.
public typealias DataStoreSnapshotValue = Codable & Sendable
