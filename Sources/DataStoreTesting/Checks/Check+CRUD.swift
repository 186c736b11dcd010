import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    static let crud: [Self] = [
        Self("insertedModelsReadBackWithEveryValue") { harness in
            let container = try harness.makeContainer()
            let items = try harness.saveItems(in: container)
            let fetched = try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            ConformanceFixtures.expectSameValues(fetched, as: items)
        },
        Self("insertedModelsGetPermanentIdentifiersOfTheStore") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let items = ConformanceFixtures.items()
            for item in items { context.insert(item) }
            let temporary = items.map(\.persistentModelID)
            try context.save()
            let permanent = items.map(\.persistentModelID)
            #expect(temporary.allSatisfy { $0.storeIdentifier == nil }, "unsaved models have temporary identifiers")
            #expect(permanent.allSatisfy { $0.storeIdentifier != nil }, "saved models have the store's identifiers")
            #expect(Set(permanent.map(\.storeIdentifier)).count == 1, "one store minted them all")
            #expect(Set(permanent).count == items.count, "each model has its own identifier")
            #expect(Set(permanent).isDisjoint(with: temporary))
            #expect(permanent.allSatisfy { $0.entityName == "ConformanceItem" })
            let reader = ModelContext(container)
            #expect(Set(try reader.fetchIdentifiers(FetchDescriptor<ConformanceItem>())) == Set(permanent))
            let found = try permanent.map { try #require(reader.model(for: $0) as? ConformanceItem) }
            #expect(found.map(\.small) == items.map(\.small), "model(for:) finds each saved model by its identifier")
        },
        Self("updatesReplaceTheStoredValues") { harness in
            let container = try harness.makeContainer()
            let items = try harness.saveItems(in: container)
            let context = ModelContext(container)
            let stored = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            stored[0].name = "Lyon"
            stored[0].notes = nil
            stored[0].rating = nil
            stored[0].tags = ["z"]
            stored[0].status = .done
            stored[0].dueDate = .distantPast
            stored[1].notes = "now set"
            stored[1].price = .nan
            try context.save()
            let fetched = try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            ConformanceFixtures.expectSameValues(fetched, as: stored)
            #expect(fetched[0].name == "Lyon" && fetched[0].notes == nil && fetched[0].rating == nil && fetched[0].tags == ["z"])
            #expect(fetched[1].notes == "now set" && fetched[1].price.isNaN)
            #expect(fetched.count == items.count)
        },
        Self("deletesRemoveTheModels") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            let context = ModelContext(container)
            let stored = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            let doomed = stored[2].persistentModelID
            context.delete(stored[2])
            context.delete(stored[5])
            try context.save()
            let reader = ModelContext(container)
            #expect(try reader.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)])).map(\.small) == [0, 1, 3, 4, 6, 7, 8, 9])
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceItem>()) == 8)
            #expect(try reader.fetchIdentifiers(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.persistentModelID == doomed })).isEmpty)
        },
        Self("aSaveWithoutChangesWritesNothing") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            let context = ModelContext(container)
            _ = try context.fetch(FetchDescriptor<ConformanceItem>())
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceItem>()) == 10)
        },
    ]
}
