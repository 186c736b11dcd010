import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// A store that keeps `DefaultHistoryTransaction` history (``HistoryProviding``) records each
    /// save as one transaction by the context's author, one change per model; any other store
    /// makes `fetchHistory` throw ``PersistenceError`` `.unavailable`, as does one whose
    /// configuration turned its history off (a `JSONStore` without `keepsHistory`).
    static let history: [Self] = [
        Self("historyIsOneTransactionPerSaveWhereTheStoreKeepsIt") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            context.author = "conformance"
            let items = ConformanceFixtures.items()
            for item in items { context.insert(item) }
            try context.save()
            guard keepsDefaultHistory(container) else {
                let error = try #require(throws: PersistenceError.self) { try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
                #expect(error.code == .unavailable)
                return
            }
            do {
                _ = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            } catch let error as PersistenceError where error.code == .unavailable {
                return
            }
            items[0].count += 1
            try context.save()
            let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(transactions.map(\.author) == ["conformance", "conformance"])
            #expect(transactions.first?.changes.map(\.changedPersistentIdentifier) == items.map(\.persistentModelID))
            guard case .update(let update as DefaultHistoryUpdate<ConformanceItem>)? = transactions.last?.changes.first else {
                Issue.record("the second save's change is not an update of a ConformanceItem")
                return
            }
            #expect(update.changedPersistentIdentifier == items[0].persistentModelID)
            #expect(update.updatedAttributes.map { $0 as PartialKeyPath<ConformanceItem> } == [\ConformanceItem.count])
            let first = try #require(transactions.first?.token)
            let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > first }))
            #expect(after.map(\.transactionIdentifier) == [transactions[1].transactionIdentifier])
        },
        Self("aBatchDeleteIsRecordedUnderTheDeletingContextsAuthor") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            setup.author = "writer"
            let items = ConformanceFixtures.items()
            for item in items { setup.insert(item) }
            try setup.save()
            // A store without history is checked by the first check.
            guard keepsDefaultHistory(container), (try? setup.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())) != nil else { return }

            let context = ModelContext(container)
            context.author = "cleaner"
            try context.delete(model: ConformanceItem.self, where: #Predicate { $0.small < 3 })
            try context.save()
            let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(transactions.map(\.author) == ["writer", "cleaner"])
            let deleted = transactions.last?.changes.compactMap { change -> PersistentIdentifier? in
                guard case .delete(let delete) = change else { return nil }
                return delete.changedPersistentIdentifier
            }
            #expect(Set(deleted ?? []) == Set(items.prefix(3).map(\.persistentModelID)))
        },
        sampleTripsHistory,
    ]

    /// Whether the container's store keeps history of the default transaction type.
    private static func keepsDefaultHistory(_ container: ModelContainer) -> Bool {
        func isDefault<S: HistoryProviding>(_: S) -> Bool { S.HistoryType.self == DefaultHistoryTransaction.self }
        guard let provider = container.stores.first?.store as? any HistoryProviding else { return false }
        return isDefault(provider)
    }
}
