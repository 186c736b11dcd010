import Foundation
import Synchronization

/// The identity of a model: the entity it belongs to, the store that minted it, and the store's
/// primary key. A model that was never saved has a *temporary* identifier (`storeIdentifier == nil`);
/// saving replaces it with the permanent one the store returns.
///
/// Identifiers compare by value, including identifiers that were decoded: a decoded identifier
/// equals the one that was encoded.
public struct PersistentIdentifier: Hashable, Identifiable, Equatable, Comparable, Codable, Sendable {
    /// The opaque identity value: the entity and store (one shared `IdentifierScope`) and the key.
    /// 32 bytes rather than the 56 of three fields: a context keeps one per registered model in
    /// its identity map and one in each backing data, and a save hands one over per model.
    public struct ID: Hashable, Equatable, Sendable {
        let scope: IdentifierScope
        let primaryKey: PrimaryKey

        /// Scopes are interned, so equal scopes are the same instance.
        public static func == (lhs: ID, rhs: ID) -> Bool {
            lhs.scope === rhs.scope && lhs.primaryKey == rhs.primaryKey
        }

        /// The key and the scope's identity, not its strings: a context looks its models up by
        /// identifier several times per model per save.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(primaryKey)
            hasher.combine(ObjectIdentifier(scope))
        }
    }

    /// The identifier's opaque identity value, for `Identifiable`.
    public let id: ID

    /// Whether both identify the same model of the same store.
    public static func == (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the identity that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// The name of the entity (the model class) the identified model belongs to.
    public var entityName: String { id.scope.entityName }

    /// The identifier of the store that minted this identifier, or `nil` for a temporary identifier.
    public var storeIdentifier: String? { id.scope.storeIdentifier }

    /// The entity and store, shared with every identifier of the pair.
    package var scope: IdentifierScope { id.scope }

    /// Whether this identifier was assigned before the model's first save.
    package var isTemporary: Bool { id.scope.storeIdentifier == nil }

    /// The store's primary key: an integer when the store minted an integer, a string otherwise.
    package var primaryKey: PrimaryKey { id.primaryKey }

    package init(entityName: String, storeIdentifier: String?, primaryKey: PrimaryKey) {
        self.init(scope: .of(entityName: entityName, storeIdentifier: storeIdentifier), primaryKey: primaryKey)
    }

    /// An identifier in a scope the caller looked up once (a store per entity, a type's temporaries).
    package init(scope: IdentifierScope, primaryKey: PrimaryKey) {
        id = ID(scope: scope, primaryKey: primaryKey)
    }

    /// A new temporary identifier: unique in this process, which is where temporary identifiers
    /// live (a save replaces them; a remote store sees them only within one request). A counter,
    /// not a UUID string, which every inserted model would format, hash and allocate.
    package static func temporary(entityName: String) -> PersistentIdentifier {
        temporary(in: .of(entityName: entityName, storeIdentifier: nil))
    }

    /// A new temporary identifier in a scope of temporaries (``ModelTypeInfo/temporaryScope``).
    package static func temporary(in scope: IdentifierScope) -> PersistentIdentifier {
        let key = temporaryKeys.wrappingAdd(1, ordering: .relaxed).newValue
        return PersistentIdentifier(scope: scope, primaryKey: .integer(key))
    }

    private static let temporaryKeys = Atomic<Int64>(0)

    /// Mints a permanent identifier for a model stored in a custom store.
    ///
    /// ```swift
    /// let id = try PersistentIdentifier.identifier(for: store.identifier, entityName: "Trip", primaryKey: UUID())
    /// ```
    /// - Throws: ``PersistenceError`` with code `.invalidIdentifier` when the store identifier or
    ///   the entity name is empty.
    public static func identifier<T>(for storeIdentifier: String, entityName: String, primaryKey: T) throws -> PersistentIdentifier
        where T: Comparable, T: CustomStringConvertible, T: Decodable, T: Encodable, T: Hashable {
        guard !storeIdentifier.isEmpty else {
            throw PersistenceError(.invalidIdentifier, "A persistent identifier needs a non-empty store identifier; pass the store's `identifier`.")
        }
        guard !entityName.isEmpty else {
            throw PersistenceError(.invalidIdentifier, "A persistent identifier needs a non-empty entity name; pass the model's entity name, e.g. Schema.entityName(for: Trip.self).")
        }
        return PersistentIdentifier(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: PrimaryKey(primaryKey))
    }

    /// Orders identifiers by entity name, then store, then primary key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        if lhs.storeIdentifier != rhs.storeIdentifier { return (lhs.storeIdentifier ?? "") < (rhs.storeIdentifier ?? "") }
        return lhs.primaryKey < rhs.primaryKey
    }
}

/// The entity and the store of identifiers, shared by all of them: one instance per pair alive
/// in the process (made only by ``of(entityName:storeIdentifier:)``), so identifiers compare
/// scopes by reference.
///
/// The table holds scopes strongly and lets go of those only it still holds, each time it has
/// grown to twice the size it had after the last such sweep: a process that opens store after
/// store (each with its own identifier) does not keep them all. Not weakly: a weak reference gives
/// its object a side table, through which every retain and release then goes the slow way, and
/// every identifier copied retains its scope.
package final class IdentifierScope: Sendable {
    package let entityName: String
    /// `nil` for the scope of an entity's temporary identifiers.
    package let storeIdentifier: String?

    private init(entityName: String, storeIdentifier: String?) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
    }

    private struct Key: Hashable {
        let entityName: String
        let storeIdentifier: String?
    }

    private struct Table {
        static let firstSweep = 64
        var scopes: [Key: IdentifierScope] = [:]
        var sweepAt = firstSweep

        /// Drops the scopes nothing but the table holds. Under the table's lock: a scope only the
        /// table holds has no identifier anywhere that another thread could be copying.
        mutating func sweep() {
            var unused: [Key] = []
            // By index, not over `indices`, which holds the dictionary's storage: the in-place
            // access below would then copy it, and every scope would look shared.
            var index = scopes.startIndex
            while index != scopes.endIndex {
                if isKnownUniquelyReferenced(&scopes.values[index]) { unused.append(scopes.keys[index]) }
                scopes.formIndex(after: &index)
            }
            for key in unused { scopes.removeValue(forKey: key) }
            sweepAt = max(Self.firstSweep, scopes.count * 2)
        }
    }

    private static let interned = Mutex(Table())

    /// The one live scope of this entity and store. Looked up under a lock: callers that make
    /// many identifiers keep their scope (stores per entity, type info for temporaries).
    package static func of(entityName: String, storeIdentifier: String?) -> IdentifierScope {
        let key = Key(entityName: entityName, storeIdentifier: storeIdentifier)
        return interned.withLock { table in
            if let scope = table.scopes[key] { return scope }
            if table.scopes.count >= table.sweepAt { table.sweep() }
            let scope = IdentifierScope(entityName: entityName, storeIdentifier: storeIdentifier)
            table.scopes[key] = scope
            return scope
        }
    }

    /// How many scopes the table holds, for tests of its sweep.
    package static var internedCountForTesting: Int { interned.withLock { $0.scopes.count } }
}

/// A store's primary key, kept with the JSON type it was minted with.
package enum PrimaryKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    init<T: CustomStringConvertible>(_ value: T) {
        switch value {
        case let value as any BinaryInteger:
            if let exact = Int64(exactly: value) { self = .integer(exact) } else { self = .string(value.description) }
        default:
            self = .string(value.description)
        }
    }

    package var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }

    package static func < (lhs: PrimaryKey, rhs: PrimaryKey) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(l), .integer(r)): l < r
        case let (.string(l), .string(r)): l < r
        case (.integer, .string): true
        case (.string, .integer): false
        }
    }
}

extension PersistentIdentifier {
    private enum CodingKeys: String, CodingKey { case implementation }
    private enum ImplementationKeys: String, CodingKey {
        case entityName, isTemporary, primaryKey, storeIdentifier, uriRepresentation
    }

    /// `{"implementation": {"entityName", "isTemporary", "primaryKey", "storeIdentifier", "uriRepresentation"}}`,
    /// the shape SwiftData's identifiers encode to; `primaryKey` keeps the JSON type it was minted with.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: CodingKeys.self)
        let container = try outer.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        let entityName = try container.decode(String.self, forKey: .entityName)
        let storeIdentifier = try container.decodeIfPresent(String.self, forKey: .storeIdentifier)
        let primaryKey: PrimaryKey
        if let integer = try? container.decode(Int64.self, forKey: .primaryKey) {
            primaryKey = .integer(integer)
        } else {
            primaryKey = .string(try container.decode(String.self, forKey: .primaryKey))
        }
        self.init(entityName: entityName, storeIdentifier: storeIdentifier, primaryKey: primaryKey)
    }

    /// Encodes the identifier in the shape SwiftData's identifiers have, `implementation` holding
    /// its entity, store, key and URI.
    public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: CodingKeys.self)
        var container = outer.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        try container.encode(entityName, forKey: .entityName)
        try container.encode(isTemporary, forKey: .isTemporary)
        switch primaryKey {
        case .integer(let value): try container.encode(value, forKey: .primaryKey)
        case .string(let value): try container.encode(value, forKey: .primaryKey)
        }
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(uriRepresentation, forKey: .uriRepresentation)
    }

    /// `x-swiftdata://<store>/<Entity>/<key>`; temporary identifiers use the host `temporary`.
    package var uriRepresentation: String {
        let host = storeIdentifier.map(Self.escapedPathComponent) ?? "temporary"
        return "x-swiftdata://\(host)/\(Self.escapedPathComponent(entityName))/\(Self.escapedPathComponent(primaryKey.description))"
    }

    /// `part` percent-encoded as one component of a URL's path. Entity names, store identifiers
    /// and keys are mostly letters, digits and dashes, which are returned as they are: Foundation's
    /// `CharacterSet` lookups made this most of the cost of encoding an identifier.
    package static func escapedPathComponent(_ part: String) -> String {
        if part.utf8.allSatisfy(isUnreserved) { return part }
        return part.addingPercentEncoding(withAllowedCharacters: pathComponentAllowed) ?? part
    }

    private static let pathComponentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// RFC 3986's unreserved characters, a subset of what a path component allows unescaped.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}

extension PersistentIdentifier: CustomStringConvertible, CustomDebugStringConvertible {
    /// The identifier's URI: `x-swiftdata://<store>/<Entity>/<key>`.
    public var description: String { uriRepresentation }
    /// The identifier's URI, labelled, for debugging.
    public var debugDescription: String { "PersistentIdentifier(\(uriRepresentation))" }
}
