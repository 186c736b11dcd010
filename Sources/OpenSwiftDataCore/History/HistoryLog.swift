import Foundation

/// The history of a store that keeps it in memory (``InMemoryStore``): a ``HistoryBook`` behind a
/// lock.
package final class HistoryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var book = HistoryBook()

    package init() {}

    /// Records a save the store applied (``HistoryBook/record(_:remapped:)``); answers the
    /// transaction's number.
    @discardableResult
    package func record(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier]) -> Int64 {
        lock.withLock { book.record(request, remapped: remapped) }
    }

    package func fetch(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws -> [DefaultHistoryTransaction] {
        try lock.withLock { book }.transactions(descriptor, storeIdentifier: storeIdentifier)
    }

    package func delete(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws {
        try lock.withLock { try book.delete(descriptor, storeIdentifier: storeIdentifier) }
    }

    /// The records the query selects, in its order.
    package func records(_ query: HistoryRecordQuery, storeIdentifier: String) throws -> [HistoryRecord] {
        try lock.withLock { try book.records(query, storeIdentifier: storeIdentifier) }
    }

    /// Deletes the records the query selects.
    package func delete(_ query: HistoryRecordQuery, storeIdentifier: String) throws {
        try lock.withLock { try book.delete(query, storeIdentifier: storeIdentifier) }
    }

    /// The newest transaction's number, nil while there is none.
    package var latestTransaction: Int64? {
        lock.withLock { book.latestTransaction }
    }
}
