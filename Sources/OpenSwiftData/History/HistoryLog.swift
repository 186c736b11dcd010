import Foundation

/// The history of a store that keeps it in memory (``InMemoryStore``): its transactions as
/// ``HistoryRecord``s, numbered from 1, filtered in Swift.
package final class HistoryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [HistoryRecord] = []
    private var lastTransaction: Int64 = 0
    private var lastChange: Int64 = 0
    private var deletedThrough: Int64 = 0

    package init() {}

    /// Records a save the store applied: inserts under their permanent identifiers (`remapped`),
    /// one change per model, deletes with their `.preserveValueOnDeletion` values.
    package func record(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier]) {
        let process = DefaultHistoryTransaction.currentProcess
        lock.withLock {
            var kinds: [(PersistentIdentifier, HistoryRecord.Kind)] = []
            kinds.reserveCapacity(request.inserted.count + request.updated.count + request.deleted.count)
            for snapshot in request.inserted {
                kinds.append((remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier, .insert))
            }
            // A model inserted in this save is recorded once, as an insert; only a save with
            // updates needs the inserted set.
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
        }
    }

    package func fetch(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws -> [DefaultHistoryTransaction] {
        let filter = HistoryFilter(descriptor.predicate)
        let selected = try lock.withLock {
            try filter.checkTokens(storeIdentifier: storeIdentifier, deletedThrough: deletedThrough)
            return records.filter(filter.admits)
        }
        return try descriptor.finish(try selected.map { try $0.transaction(storeIdentifier: storeIdentifier) }, filter: filter)
    }

    package func delete(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws {
        let numbers = Set(try fetch(descriptor, storeIdentifier: storeIdentifier).map(\.transactionIdentifier))
        guard let highest = numbers.max() else { return }
        lock.withLock {
            records.removeAll { numbers.contains($0.transactionIdentifier) }
            deletedThrough = max(deletedThrough, highest)
        }
    }

    private static func info(of snapshot: DefaultSnapshot) -> ModelTypeInfo? {
        EntityRegistry.modelType(named: snapshot.persistentIdentifier.entityName).map { ModelTypeInfo.of($0) }
    }
}
