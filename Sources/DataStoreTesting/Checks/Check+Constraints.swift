import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    static let constraints: [Self] = [
        Self("aUniqueInsertUpdatesTheStoredModel") { harness in
            let container = try harness.makeContainer()
            let first = ConformanceCode(code: "a", value: 1)
            let writer = ModelContext(container)
            writer.insert(first)
            try writer.save()
            let second = ConformanceCode(code: "a", value: 2)
            let other = ModelContext(container)
            other.insert(second)
            try other.save()
            let stored = try ModelContext(container).fetch(FetchDescriptor<ConformanceCode>())
            guard harness.capabilities.contains(.uniqueUpserts) else {
                #expect(stored.count == 2, "without .uniqueUpserts the store keeps both inserts")
                return
            }
            #expect(stored.map(\.value) == [2], "the insert updated the stored model")
            #expect(second.persistentModelID == first.persistentModelID, "the insert was remapped to the stored model's identifier")
        },
        Self("uniqueInsertsInOneSaveBecomeOneModel") { harness in
            guard harness.capabilities.contains(.uniqueUpserts) else { return }
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let first = ConformanceCode(code: "b", value: 1)
            let second = ConformanceCode(code: "b", value: 2)
            let distinct = ConformanceCode(code: "c", value: 3)
            for model in [first, second, distinct] { context.insert(model) }
            try context.save()
            let stored = try ModelContext(container).fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.code)]))
            #expect(stored.map(\.code) == ["b", "c"])
            #expect(stored.map(\.value) == [2, 3], "the later insert's values win")
            #expect(first.persistentModelID == second.persistentModelID)
            #expect(first.persistentModelID != distinct.persistentModelID)
        },
        Self("batchDeleteRemovesOnlyTheMatchingModels") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            try harness.saveItems(in: container)
            let context = ModelContext(container)
            try context.delete(model: ConformanceItem.self, where: #Predicate { $0.count > 0 })
            if harness.capabilities.contains(.batchDelete) {
                #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceItem>()) == 8,
                        "a DataStoreBatching store deletes at once, without a save")
            }
            try context.save()
            let remaining = try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            #expect(remaining.map(\.small) == [1, 1, 3, 3, 4, 4, 8, 8])
            try context.delete(model: ConformanceItem.self)
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceItem>()) == 0, "no predicate deletes every model of the type")
        },
        Self("aFailedSaveChangesNothingAndKeepsThePendingChanges") { harness in
            guard harness.capabilities.contains(.uniqueUpserts) else { return }
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            for model in [ConformanceCode(code: "a", value: 1), ConformanceCode(code: "b", value: 2)] { setup.insert(model) }
            try harness.saveItems(in: container)
            try setup.save()
            let before = try snapshot(of: container)

            let context = ModelContext(container)
            let items = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            let codes = try context.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.code)]))
            context.insert(ConformanceItem(name: "new", small: 100))
            items[0].name = "renamed"
            context.delete(items[1])
            codes[1].code = "a"  // an update cannot merge two stored models: the save must fail
            #expect(throws: (any Error).self) { try context.save() }
            #expect(try snapshot(of: container) == before, "the store is as it was before the failed save")
            #expect(context.hasChanges)
            #expect(context.insertedModelsArray.count == 1 && context.deletedModelsArray.count == 1 && context.changedModelsArray.count == 2,
                    "the context keeps its pending changes")

            codes[1].code = "z"
            try context.save()
            let after = ModelContext(container)
            #expect(try after.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)])).map(\.name)
                    == ["renamed", "", "café", "Zürich", "日本", "Paris", "🇫🇷", "Straße", "a10", "new"])
            #expect(try after.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.code)])).map(\.code) == ["a", "z"])
        },
    ]

    /// Everything the store holds, as comparable text.
    private static func snapshot(of container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
        let codes = try context.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.code)]))
        return items.flatMap(ConformanceFixtures.values) + codes.map { "\($0.code)=\($0.value)" }
    }
}
