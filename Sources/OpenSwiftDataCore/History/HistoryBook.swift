import Foundation

/// A store's history as a value: its transactions as ``HistoryRecord``s, numbered from 1 and never
/// reused, filtered in Swift. ``InMemoryStore`` keeps one in memory (``HistoryLog``); `JSONStore`
/// keeps one in its file, changed on a copy with the data of each save.
package struct HistoryBook: Codable, Sendable {
    package private(set) var records: [HistoryRecord] = []
    private var lastTransaction: Int64 = 0
    private var lastChange: Int64 = 0
    /// The highest transaction number deleted so far: tokens below it are expired.
    private var deletedThrough: Int64 = 0

    package init() {}

    /// Records a save the store applied: inserts under their permanent identifiers (`remapped`),
    /// one change per model, deletes with their `.preserveValueOnDeletion` values. Answers the
    /// transaction's number.
    @discardableResult
    package mutating func record(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier]) -> Int64 {
        let process = DefaultHistoryTransaction.currentProcess
        var kinds: [(PersistentIdentifier, HistoryRecord.Kind)] = []
        kinds.reserveCapacity(request.inserted.count + request.updated.count + request.deleted.count)
        for snapshot in request.inserted {
            kinds.append((remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier, .insert))
        }
        // A model inserted in this save is recorded once, as an insert; only a save with updates
        // needs the inserted set.
        var seen = request.updated.isEmpty ? [] : Set(kinds.map(\.0))
        for snapshot in request.updated where seen.insert(snapshot.persistentIdentifier).inserted {
            let names = Self.info(of: snapshot)?.changedPropertyNames(snapshot.changedSlots) ?? []
            kinds.append((snapshot.persistentIdentifier, .update(names)))
        }
        for snapshot in request.deleted {
            var kept: [String: Any] = [:]
            for property in Self.info(of: snapshot)?.preservedOnDeletion ?? [] {
                if let value = snapshot.values[property.name] { kept[property.name] = value.value }
            }
            kinds.append((snapshot.persistentIdentifier, .delete(HistoryValues(kept))))
        }
        lastTransaction += 1
        let changes = kinds.map { identifier, kind in
            lastChange += 1
            return HistoryRecord.Change(changeIdentifier: lastChange, identifier: identifier, kind: kind)
        }
        records.append(HistoryRecord(transactionIdentifier: lastTransaction, timestamp: Date(), author: request.editingState.author,
                                     bundleIdentifier: process.bundleIdentifier, processIdentifier: process.processIdentifier,
                                     changes: changes))
        return lastTransaction
    }

    /// The transactions `descriptor` selects, typed by this process's model types.
    package func transactions(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws -> [DefaultHistoryTransaction] {
        let filter = HistoryFilter(descriptor.predicate)
        try filter.checkTokens(storeIdentifier: storeIdentifier, deletedThrough: deletedThrough)
        let selected = candidates(filter).filter(filter.admits)
        return try descriptor.evaluated(try selected.map { try $0.transaction(storeIdentifier: storeIdentifier) }, filter: filter)
    }

    /// The records from the lowest number the filter admits on. Records are kept in number order,
    /// so a read after a token skips the older history instead of testing every record.
    private func candidates(_ filter: HistoryFilter) -> ArraySlice<HistoryRecord> {
        let lowest = filter.lowestTransaction
        var low = records.startIndex, high = records.endIndex
        while low < high {
            let middle = (low + high) / 2
            if records[middle].transactionIdentifier < lowest { low = middle + 1 } else { high = middle }
        }
        return records[low...]
    }

    /// Deletes the transactions `descriptor` selects.
    package mutating func delete(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws {
        delete(Set(try transactions(descriptor, storeIdentifier: storeIdentifier).map(\.transactionIdentifier)))
    }

    /// The records the query selects, in its order.
    package func records(_ query: HistoryRecordQuery, storeIdentifier: String) throws -> [HistoryRecord] {
        try query.filter.checkTokens(storeIdentifier: storeIdentifier, deletedThrough: deletedThrough)
        var selected = candidates(query.filter).filter(query.filter.admits)
        if query.newestFirst { selected.reverse() }
        if let limit = query.limit, selected.count > limit { selected.removeSubrange(limit...) }
        return selected
    }

    /// Deletes the records the query selects.
    package mutating func delete(_ query: HistoryRecordQuery, storeIdentifier: String) throws {
        delete(Set(try records(query, storeIdentifier: storeIdentifier).map(\.transactionIdentifier)))
    }

    private mutating func delete(_ numbers: Set<Int64>) {
        guard let highest = numbers.max() else { return }
        records.removeAll { numbers.contains($0.transactionIdentifier) }
        deletedThrough = max(deletedThrough, highest)
    }

    /// Deletes the oldest transactions beyond the newest `count`; their tokens expire.
    package mutating func keepNewest(_ count: Int) {
        guard records.count > count else { return }
        delete(Set(records.prefix(records.count - count).map(\.transactionIdentifier)))
    }

    /// The newest transaction's number, nil while there is none.
    package var latestTransaction: Int64? { records.last?.transactionIdentifier }

    /// The numbers the book keeps beside its records, under their coding keys' names, for a store
    /// that writes the book's JSON itself.
    package var numbering: (lastTransaction: Int64, lastChange: Int64, deletedThrough: Int64) {
        (lastTransaction, lastChange, deletedThrough)
    }

    private static func info(of snapshot: DefaultSnapshot) -> ModelTypeInfo? {
        EntityRegistry.modelType(named: snapshot.persistentIdentifier.entityName).map { ModelTypeInfo.of($0) }
    }
}
