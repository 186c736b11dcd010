import Foundation
import OpenSwiftData

/// Body of `fetch`, `count`, `identifiers` and `batch-delete`: one store-neutral query.
package struct QueryRequest: Codable, Sendable {
    package var query: DataStoreQuery

    package init(query: DataStoreQuery) {
        self.query = query
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

    package init(inserted: [DefaultSnapshot], updated: [DefaultSnapshot], deleted: [DefaultSnapshot]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
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

    package init(storeIdentifier: String, remapped: [Remap]) {
        self.storeIdentifier = storeIdentifier
        self.remapped = remapped
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
}
