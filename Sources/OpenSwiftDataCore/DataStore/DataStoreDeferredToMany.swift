/// The identifiers one to-many relationship holds, for every model of one fetch, read from the
/// store only when a model's relationship is first read: one query for the whole fetch, and none
/// when nothing reads the relationship.
///
/// A ``DataStoreRowAccess`` store makes one per to-many relationship of a fetch and puts a
/// ``reference(for:)`` in each row's slot for that relationship instead of the identifiers:
///
/// ```swift
/// let tags = DataStoreDeferredToMany(relationship: "Note.tags") { [database] in
///     try database.tagIdentifiers(ofNotes: owners)   // [PersistentIdentifier: [PersistentIdentifier]]
/// }
/// rows[index].values[tagsSlot] = tags.reference(for: rows[index].persistentIdentifier)
/// ```
///
/// A model's read sees the relationship as stored at that moment, as a fault does: not
/// necessarily as it was when the model was fetched. Should `load` throw, the read stops the
/// program, as the read of a model whose values cannot be loaded does: an empty list would read as
/// if the relationship had been emptied, and a cascade would then miss its targets.
public final class DataStoreDeferredToMany: @unchecked Sendable {
    /// What a row's to-many slot holds until the relationship is read.
    public struct Reference: @unchecked Sendable {
        let group: DataStoreDeferredToMany
        let owner: Int64
    }

    private enum Source {
        /// Owners and related models by primary key, as the default store reads them.
        case keys(destination: IdentifierScope, load: () throws -> [Int64: [Int64]])
        case identifiers(load: () throws -> [PersistentIdentifier: [PersistentIdentifier]])
    }

    private let source: Source
    private let describe: () -> String
    // Read once; the models of one fetch belong to one context and are read on its thread.
    private var loadedKeys: [Int64: [Int64]]?
    private var loadedIdentifiers: [PersistentIdentifier: [PersistentIdentifier]]?
    /// The owners handed a ``reference(for:)``, by the position each reference names.
    private var owners: [PersistentIdentifier] = []

    /// A relationship whose identifiers `load` answers by owner, for the models of one fetch;
    /// `relationship` (`"Note.tags"`) names it in the message should `load` fail.
    public init(relationship: String, load: @escaping () throws -> [PersistentIdentifier: [PersistentIdentifier]]) {
        source = .identifiers(load: load)
        describe = { relationship }
    }

    /// `load` answers the related keys by owner key, each list in key order; `describe` names the
    /// relationship for the message should the store fail.
    package init(destination: IdentifierScope, describe: @escaping () -> String, load: @escaping () throws -> [Int64: [Int64]]) {
        source = .keys(destination: destination, load: load)
        self.describe = describe
    }

    /// What the row of the model `owner` holds in this relationship's slot. Not thread-safe: call
    /// it while building the fetch's rows, before handing them over.
    public func reference(for owner: PersistentIdentifier) -> Reference {
        owners.append(owner)
        return Reference(group: self, owner: Int64(owners.count - 1))
    }

    /// The reference of the model whose primary key is `key`, for a group made with keys.
    package func reference(forKey key: Int64) -> Reference {
        Reference(group: self, owner: key)
    }

    func identifiers(of owner: Int64) -> [PersistentIdentifier] {
        switch source {
        case .keys(let destination, let load):
            if loadedKeys == nil { loadedKeys = loaded(load) }
            return (loadedKeys?[owner] ?? []).map { PersistentIdentifier(scope: destination, primaryKey: .integer($0)) }
        case .identifiers(let load):
            if loadedIdentifiers == nil { loadedIdentifiers = loaded(load) }
            return loadedIdentifiers?[owners[Int(owner)]] ?? []
        }
    }

    private func loaded<Value>(_ load: () throws -> Value) -> Value {
        do {
            return try load()
        } catch {
            preconditionFailure("\(describe()) could not be loaded: \(error)")
        }
    }
}
