import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// Values at the edges of what a store can keep read back exactly, or the save that would
    /// lose them fails with the store's own error, saying what to do, and changes nothing.
    static let values: [Self] = [
        Self("signedZerosReadBackWithTheirSignAndCompareAsZero") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let values: [(small: Int16, price: Double)] = [(0, -1), (1, -0.0), (2, 0), (3, 1)]
            for (small, price) in values {
                context.insert(ConformanceItem(name: "\(small)", small: small, price: price, discount: -price, weight: Float(price)))
            }
            try context.save()

            let reader = ModelContext(container)
            let stored = try reader.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            #expect(stored.map(\.price.sign) == [.minus, .minus, .plus, .plus])
            #expect(stored.map { $0.discount?.sign } == [.plus, .plus, .minus, .minus])
            #expect(stored.map(\.weight.sign) == [.minus, .minus, .plus, .plus])
            let zero = 0.0
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.price == zero })) == 2,
                    "-0.0 == 0.0, as Swift has it")
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.price < zero })) == 1)
            #expect(try reader.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.price), SortDescriptor(\.small)])).map(\.small)
                == [0, 1, 2, 3], "the zeros tie, as Swift's < has them")
        },
        Self("stringsHoldingNULReadBackOrAreRefusedWithNothingSaved") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            context.insert(ConformanceItem(name: "kept", small: 0))
            try context.save()
            let name = "a\u{0}b"
            context.insert(ConformanceItem(name: name, notes: "\u{0}", small: 1, tags: ["x\u{0}", ""]))
            do {
                try context.save()
            } catch {
                #expect("\(error)".contains("NUL"), "the error names the value it refuses: \(error)")
                #expect(context.insertedModelsArray.count == 1, "the refused insert is still pending")
                #expect(try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>()).map(\.name) == ["kept"])
                return
            }
            let reader = ModelContext(container)
            let stored = try reader.fetch(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.name == name }))
            #expect(stored.map(\.name) == [name])
            #expect(stored.map(\.notes) == ["\u{0}"])
            #expect(stored.map(\.tags) == [["x\u{0}", ""]])
        },
    ]
}
