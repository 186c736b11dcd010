import Foundation
import OpenSwiftData

/// A model's changes, newest first, read through a `ModelContext`'s `fetchHistory`: the store
/// selects the transactions that changed its entity, in pages by transaction number, and the
/// model's own changes are picked from those.
struct ModelHistory {
    struct Entry: Sendable {
        let timestamp: Date
        let author: String?
        let kind: String
        /// The updated attributes' names, for an update.
        let attributes: [String]
    }

    struct Page: Sendable {
        let entries: [Entry]
        /// The transaction to read older changes before, when there may be some.
        let olderThan: Int64?
    }

    let container: ModelContainer
    /// The most changes a page shows.
    var limit = 20
    /// Transactions read per round, and rounds per page, bounding what one page reads.
    var batch = 200
    var rounds = 5

    func page(of identifier: PersistentIdentifier, before: Int64?) throws -> Page {
        let context = ModelContext(container)
        let entityName = identifier.entityName
        var entries: [Entry] = []
        var cursor = before
        for _ in 0..<rounds {
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: Self.predicate(entityName: entityName, before: cursor),
                                                                        sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
            descriptor.fetchLimit = UInt64(batch)
            let transactions = try context.fetchHistory(descriptor)
            for transaction in transactions {
                for change in transaction.changes.reversed() where change.changedPersistentIdentifier == identifier {
                    entries.append(Entry(timestamp: transaction.timestamp, author: transaction.author, kind: Self.kind(of: change),
                                         attributes: Self.attributeNames(of: change)))
                }
                cursor = transaction.transactionIdentifier
                if entries.count >= limit { return Page(entries: entries, olderThan: cursor) }
            }
            if transactions.count < batch { return Page(entries: entries, olderThan: nil) }
        }
        return Page(entries: entries, olderThan: cursor)
    }

    private static func predicate(entityName: String, before: Int64?) -> Predicate<DefaultHistoryTransaction> {
        guard let before else {
            return #Predicate { $0.changes.contains { $0.changedPersistentIdentifier.entityName == entityName } }
        }
        return #Predicate { $0.transactionIdentifier < before && $0.changes.contains { $0.changedPersistentIdentifier.entityName == entityName } }
    }

    private static func kind(of change: HistoryChange) -> String {
        switch change {
        case .insert: "Inserted"
        case .update: "Updated"
        case .delete: "Deleted"
        }
    }

    private static func attributeNames(of change: HistoryChange) -> [String] {
        guard case .update(let update) = change else { return [] }
        return names(of: update)
    }

    /// The names `@Model` gives the key paths of an update's attributes.
    private static func names<Update: HistoryUpdate>(of update: Update) -> [String] {
        let metadata = Update.Model.schemaMetadata
        return update.updatedAttributes.compactMap { keyPath in metadata.first { $0.keypath == keyPath as AnyKeyPath }?.name }
    }
}
