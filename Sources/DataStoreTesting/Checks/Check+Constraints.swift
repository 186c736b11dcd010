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
        Self("aLongUniqueValueSavesReadsBackExactlyAndMerges") { harness in
            let long = longCode()
            let longer = long + "!"
            let container = try harness.makeContainer()
            let writer = ModelContext(container)
            let first = ConformanceCode(code: long, value: 1)
            writer.insert(first)
            try writer.save()
            writer.insert(ConformanceCode(code: longer, value: 2))
            try writer.save()
            let again = ConformanceCode(code: long, value: 3)
            let other = ModelContext(container)
            other.insert(again)
            try other.save()

            let reader = ModelContext(container)
            let stored = try reader.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.value)]))
            let found = try reader.fetch(FetchDescriptor<ConformanceCode>(predicate: #Predicate { $0.code == long }))
            guard harness.capabilities.contains(.uniqueUpserts) else {
                #expect(stored.map(\.value) == [1, 2, 3], "without .uniqueUpserts the store keeps every insert")
                #expect(found.map(\.value).sorted() == [1, 3])
                return
            }
            #expect(stored.map(\.value) == [2, 3], "the insert equal on the long code updated the stored model")
            #expect(stored.map { Array($0.code.utf8) } == [Array(longer.utf8), Array(long.utf8)], "both codes read back byte for byte")
            #expect(again.persistentModelID == first.persistentModelID, "the insert was remapped to the stored model's identifier")
            #expect(found.map(\.value) == [3], "a predicate on the long code finds its model alone")
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

    /// 256 KiB of pseudo-random hex digits: far longer than an index entry of a b-tree holds
    /// (PostgreSQL's: about 2.7 kB after compression, which random digits defeat), and within
    /// the request body a remote store's server takes.
    private static func longCode() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<(1 << 18)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return digits[Int(state >> 60)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything the store holds, as comparable text.
    private static func snapshot(of container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
        let codes = try context.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.code)]))
        return items.flatMap(ConformanceFixtures.values) + codes.map { "\($0.code)=\($0.value)" }
    }
}
