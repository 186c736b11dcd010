import Foundation
import OpenSwiftData

/// With ``JSONStoreConfiguration/keepsHistory``, the store keeps the history of its saves as the
/// file's last element, `{"history": {…}}`, changed in the same file replacement as the data: a
/// save and its transaction are written together or not at all. The file keeps the newest
/// ``JSONStoreConfiguration/historyLimit`` transactions. Predicates run in Swift.
extension JSONStore: HistoryProviding {
    /// The store keeps its history as `DefaultHistoryTransaction`s.
    public typealias HistoryType = DefaultHistoryTransaction

    /// The type of the store's history transactions.
    public static var historyType: DefaultHistoryTransaction.Type { DefaultHistoryTransaction.self }

    /// The transactions `descriptor` selects. Throws `PersistenceError` `.unavailable` for a store
    /// that keeps no history.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        try currentHistory().transactions(descriptor, storeIdentifier: identifier)
    }

    /// Deletes the transactions `descriptor` selects, rewriting the file; tokens below the
    /// highest deleted number expire.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        try changeHistory { try $0.delete(descriptor, storeIdentifier: identifier) }
    }

    /// Records a save's transaction in the staged archive; answers its token, nil without history.
    func recordHistory(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier],
                       in archive: inout SnapshotArchive) -> DefaultHistoryToken? {
        guard archive.history != nil else { return nil }
        let number = archive.history!.record(request, remapped: remapped)
        archive.history!.keepNewest(configuration.historyLimit)
        return DefaultHistoryToken(storeIdentifier: identifier, transactionIdentifier: number)
    }

    /// Records a batch delete of these models as one transaction, when any was deleted.
    func recordDeletes(_ doomed: [DefaultSnapshot], author: String?, in archive: inout SnapshotArchive) {
        guard !doomed.isEmpty else { return }
        _ = recordHistory(DataStoreSaveChangesRequest(inserted: [], updated: [], deleted: doomed, editingState: EditingState(author: author)),
                          remapped: [:], in: &archive)
    }

    private func currentHistory() throws -> HistoryBook {
        try lock.withLock {
            try reloadIfChanged()
            guard let history = archive.history else { throw Self.noHistory(name: configuration.name) }
            return history
        }
    }

    private func changeHistory(_ change: (inout HistoryBook) throws -> Void) throws {
        try write("delete history") { archive in
            guard var history = archive.history else { throw Self.noHistory(name: configuration.name) }
            try change(&history)
            archive.history = history
        }
    }

    static func noHistory(name: String) -> PersistenceError {
        PersistenceError(.unavailable, "The JSON store '\(name)' keeps no history; open it with JSONStoreConfiguration(…, keepsHistory: true).",
                         underlying: DataStoreError.unsupportedFeature)
    }
}

/// The server reads and deletes the history by name.
extension JSONStore: HistoryRecordReading {
    package var historyStoreIdentifier: String { identifier }

    package func historyRecords(_ query: HistoryRecordQuery) throws -> [HistoryRecord] {
        try currentHistory().records(query, storeIdentifier: identifier)
    }

    package func deleteHistoryRecords(_ query: HistoryRecordQuery) throws {
        try changeHistory { try $0.delete(query, storeIdentifier: identifier) }
    }

    package func latestHistoryTransaction() throws -> Int64? {
        try currentHistory().latestTransaction
    }
}
