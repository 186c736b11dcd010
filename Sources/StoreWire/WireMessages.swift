import Foundation
import OpenSwiftData

/// Body of `fetch`, `count`, `identifiers` and `batch-delete`: one store-neutral query.
package struct QueryRequest: Codable, Sendable {
    package var query: DataStoreQuery
    /// For `batch-delete`: the deleting context's author, recorded with the delete's history
    /// transaction, as a save's is.
    package var author: String?

    package init(query: DataStoreQuery, author: String? = nil) {
        self.query = query
        self.author = author
    }
}

package struct FetchResponse: Codable, Sendable {
    package var snapshots: [DefaultSnapshot]

    package init(snapshots: [DefaultSnapshot]) {
        self.snapshots = snapshots
    }
}

package struct CountResponse: Codable, Sendable {
    package var count: Int

    package init(count: Int) {
        self.count = count
    }
}

package struct IdentifiersResponse: Codable, Sendable {
    package var identifiers: [PersistentIdentifier]

    package init(identifiers: [PersistentIdentifier]) {
        self.identifiers = identifiers
    }
}

/// Body of `save`: a context's changes as snapshots; inserted ones carry temporary identifiers.
package struct SaveRequest: Codable, Sendable {
    package var inserted: [DefaultSnapshot]
    package var updated: [DefaultSnapshot]
    package var deleted: [DefaultSnapshot]
    /// The saving context's author, recorded with the save's history transaction.
    package var author: String?
    /// For each of `updated`, the names of the properties the save changed (nil when unknown):
    /// what the history transaction records as its `updatedAttributes`.
    package var changedProperties: [[String]?]?

    package init(inserted: [DefaultSnapshot], updated: [DefaultSnapshot], deleted: [DefaultSnapshot], author: String? = nil) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.author = author
        let names = updated.map { snapshot -> [String]? in
            guard let changed = snapshot.changedSlots, changed.isKnown,
                  let type = EntityRegistry.modelType(named: snapshot.persistentIdentifier.entityName) else { return nil }
            return ModelTypeInfo.of(type).changedPropertyNames(changed)
        }
        changedProperties = names.allSatisfy { $0 == nil } ? nil : names
    }

    /// `updated`, each snapshot knowing the properties `changedProperties` names. Throws
    /// `DecodingError` when the two lists differ in length.
    package func updatedWithChanges() throws -> [DefaultSnapshot] {
        guard let changedProperties else { return updated }
        guard changedProperties.count == updated.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                "'changedProperties' holds \(changedProperties.count) lists for \(updated.count) updated snapshots; send one per updated snapshot, in order."))
        }
        return zip(updated, changedProperties).map { snapshot, names in
            guard let names, let type = EntityRegistry.modelType(named: snapshot.persistentIdentifier.entityName) else { return snapshot }
            let info = ModelTypeInfo.of(type)
            var slots = ChangedSlots()
            for name in names { if let property = info.property(named: name) { slots.insert(property.index) } }
            return DefaultSnapshot(persistentIdentifier: snapshot.persistentIdentifier, values: snapshot.values, changedSlots: slots)
        }
    }
}

/// What a save did: the permanent identifier of each inserted model.
package struct SaveResponse: Codable, Sendable, Equatable {
    package struct Remap: Codable, Sendable, Equatable {
        package var temporary: PersistentIdentifier
        package var permanent: PersistentIdentifier

        package init(temporary: PersistentIdentifier, permanent: PersistentIdentifier) {
            self.temporary = temporary
            self.permanent = permanent
        }
    }

    package var storeIdentifier: String
    package var remapped: [Remap]
    /// The token of the history transaction the save recorded, when the store keeps history.
    package var historyToken: DefaultHistoryToken?

    package init(storeIdentifier: String, remapped: [Remap], historyToken: DefaultHistoryToken? = nil) {
        self.storeIdentifier = storeIdentifier
        self.remapped = remapped
        self.historyToken = historyToken
    }
}

/// Every error response: `{"error": {"code": "…", "message": "…"}}`.
package struct ErrorResponse: Codable, Sendable {
    package struct Detail: Codable, Sendable {
        package var code: String
        package var message: String
    }

    package var error: Detail

    package init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}

/// The `code` values of ``ErrorResponse`` that mean more than their status.
package enum WireErrorCode {
    /// The store cannot run the query's filter exactly: the client filters in memory.
    package static let preferInMemoryFilter = "preferInMemoryFilter"
    /// The store cannot run the query's sort exactly: the client sorts in memory.
    package static let preferInMemorySort = "preferInMemorySort"
    /// A history token is from before history the store deleted (`SwiftDataError.historyTokenExpired`).
    package static let historyTokenExpired = "historyTokenExpired"
}
