import Foundation

/// A transaction as a store keeps it, before it becomes a ``DefaultHistoryTransaction``: models by
/// entity name and properties by name, so a store needs no model types to write its history.
package struct HistoryRecord: Sendable {
    package enum Kind: Sendable {
        case insert
        /// The names of the properties that changed.
        case update([String])
        /// The kept values, by property name.
        case delete(HistoryValues)
    }

    package struct Change: Sendable {
        package var changeIdentifier: Int64
        package var identifier: PersistentIdentifier
        package var kind: Kind

        package init(changeIdentifier: Int64, identifier: PersistentIdentifier, kind: Kind) {
            self.changeIdentifier = changeIdentifier
            self.identifier = identifier
            self.kind = kind
        }
    }

    package var transactionIdentifier: Int64
    package var timestamp: Date
    package var author: String?
    package var bundleIdentifier: String
    package var processIdentifier: String
    package var changes: [Change]

    /// A record as a store read it; stores outside this module (PostgreSQL) build them too.
    package init(transactionIdentifier: Int64, timestamp: Date, author: String?, bundleIdentifier: String,
                 processIdentifier: String, changes: [Change]) {
        self.transactionIdentifier = transactionIdentifier
        self.timestamp = timestamp
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }

    /// The transaction, each change typed by its model (`DefaultHistoryInsert<Trip>`). Throws
    /// when a change is of an entity no model type of this process has.
    package func transaction(storeIdentifier: String) throws -> DefaultHistoryTransaction {
        DefaultHistoryTransaction(timestamp: timestamp, changes: try changes.map { try typed($0) },
                                  transactionIdentifier: transactionIdentifier, storeIdentifier: storeIdentifier,
                                  bundleIdentifier: bundleIdentifier, processIdentifier: processIdentifier, author: author)
    }

    private func typed(_ change: Change) throws -> HistoryChange {
        guard let modelType = EntityRegistry.modelType(named: change.identifier.entityName) else {
            throw PersistenceError(.unknownEntity, "History transaction \(transactionIdentifier) changed a \(change.identifier.entityName), which no model type of this process is named; create the container with that model type to read this history, or delete the history before it.")
        }
        return typed(change, as: modelType)
    }

    private func typed<M: PersistentModel>(_ change: Change, as _: M.Type) -> HistoryChange {
        let number = change.changeIdentifier
        let identifier = change.identifier
        switch change.kind {
        case .insert:
            return .insert(DefaultHistoryInsert<M>(changeIdentifier: number, transactionIdentifier: transactionIdentifier,
                                                   changedPersistentIdentifier: identifier))
        case .update(let names):
            let info = ModelTypeInfo.of(M.self)
            var keyPaths: [any PartialKeyPath<M> & Sendable] = []
            for property in info.properties where names.contains(property.name) {
                if let keyPath = property.keyPath as? PartialKeyPath<M> { keyPaths.append(AssumedSendable.keyPath(keyPath)) }
            }
            return .update(DefaultHistoryUpdate<M>(changeIdentifier: number, transactionIdentifier: transactionIdentifier,
                                                   changedPersistentIdentifier: identifier, updatedAttributes: keyPaths))
        case .delete(let values):
            return .delete(DefaultHistoryDelete<M>(changeIdentifier: number, transactionIdentifier: transactionIdentifier,
                                                   changedPersistentIdentifier: identifier, tombstone: HistoryTombstone(values: values.byName)))
        }
    }
}

/// Property values by name, as a tombstone keeps them. Unchecked: persisted attribute values are
/// `Codable` values, never shared mutable state.
package struct HistoryValues: @unchecked Sendable {
    package var byName: [String: Any]

    package init(_ byName: [String: Any] = [:]) { self.byName = byName }
}

extension ModelTypeInfo {
    /// The attributes marked `@Attribute(.preserveValueOnDeletion)`, whose values a deleted model's
    /// history keeps.
    package var preservedOnDeletion: [Property] {
        properties.filter { ($0.metadata as? Schema.Attribute)?.options.contains(.preserveValueOnDeletion) == true }
    }

    /// The names of the properties a saved snapshot changed: those of `changed` when it knows them,
    /// else every property.
    package func changedPropertyNames(_ changed: ChangedSlots?) -> [String] {
        guard let changed, changed.isKnown else { return properties.map(\.name) }
        return properties.filter { changed.contains($0.index) }.map(\.name)
    }
}
