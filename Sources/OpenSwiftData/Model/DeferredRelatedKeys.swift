/// The keys one to-many relationship holds for every model of one fetch, read from the store on
/// the first read of any of them: one query for the whole fetch, and none when nothing reads the
/// relationship (reading them up front made every fetch pay for keys most fetches never look
/// at).
///
/// A model's read sees the relationship as stored at that moment, as a fault does: not
/// necessarily as it was when the model was fetched.
package final class DeferredRelatedKeys: @unchecked Sendable {
    /// What a relationship's slot holds until it is read: the group and the model's own key.
    package struct Reference {
        let keys: DeferredRelatedKeys
        let owner: Int64
    }

    private let destination: IdentifierScope
    private let describe: () -> String
    private let load: () throws -> [Int64: [Int64]]
    /// Read once; the models of one fetch belong to one context and are read on its thread.
    private var loaded: [Int64: [Int64]]?

    /// `load` answers the related keys by owner key, each list in key order; `describe` names the
    /// relationship for the message should the store fail.
    package init(destination: IdentifierScope, describe: @escaping () -> String, load: @escaping () throws -> [Int64: [Int64]]) {
        self.destination = destination
        self.describe = describe
        self.load = load
    }

    func identifiers(of owner: Int64) -> [PersistentIdentifier] {
        let keys: [Int64: [Int64]]
        if let loaded {
            keys = loaded
        } else {
            do {
                keys = try load()
            } catch {
                // As for a model whose values cannot be loaded: an empty list would read as if the
                // relationship had been emptied, and a cascade would then miss its targets.
                preconditionFailure("\(describe()) could not be loaded: \(error)")
            }
            loaded = keys
        }
        return (keys[owner] ?? []).map { PersistentIdentifier(scope: destination, primaryKey: .integer($0)) }
    }
}
