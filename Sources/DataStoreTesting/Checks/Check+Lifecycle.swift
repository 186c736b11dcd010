import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    static let lifecycle: [Self] = [
        Self("aReopenedContainerSeesEverythingSaved") { harness in
            let items: [ConformanceItem]
            do {
                let container = try harness.makeContainer()
                items = try harness.saveItems(in: container)
                let context = ModelContext(container)
                let rex = ConformancePet(name: "Rex")
                let owner = ConformanceOwner(name: "Ann", pets: [rex])
                context.insert(rex)
                context.insert(owner)
                let stored = try context.fetch(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.small == 2 }))
                stored.first?.owner = owner
                try context.save()
            }
            let reopened = ModelContext(try harness.makeContainer())
            let fetched = try reopened.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            guard harness.capabilities.contains(.persistent) else {
                #expect(fetched.isEmpty, "a store that is not persistent starts empty in a new container")
                return
            }
            ConformanceFixtures.expectSameValues(fetched, as: items)
            #expect(fetched.map(\.persistentModelID) == items.map(\.persistentModelID), "identifiers survive reopening")
            #expect(fetched.map { $0.owner?.pets.map(\.name) } == [nil, nil, ["Rex"], nil, nil, nil, nil, nil, nil, nil])
        },
        Self("contextsOfOneContainerSeeEachOthersSaves") { harness in
            let container = try harness.makeContainer()
            let first = ModelContext(container)
            let second = ModelContext(container)
            let items = ConformanceFixtures.items()
            for item in items { first.insert(item) }
            try first.save()
            let seen = try second.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            #expect(seen.map(\.persistentModelID) == items.map(\.persistentModelID))
            seen[0].name = "changed by the second"
            second.delete(seen[9])
            second.insert(ConformanceItem(name: "added by the second", small: 10))
            try second.save()
            #expect(try first.fetchCount(FetchDescriptor<ConformanceItem>()) == 10)
            #expect(try first.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)])).map(\.small)
                    == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10])
            let third = ModelContext(container)
            #expect(try third.fetch(FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.small == 0 })).map(\.name)
                    == ["changed by the second"])
        },
        Self("eraseEmptiesTheStore") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            guard harness.capabilities.contains(.erase) else {
                #expect(throws: (any Error).self) { try container.erase() }
                #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceItem>()) == 10, "a refused erase keeps the data")
                return
            }
            try container.erase()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceItem>()) == 0)
            let context = ModelContext(container)
            context.insert(ConformanceItem(name: "after erase"))
            try context.save()
            #expect(try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>()).map(\.name) == ["after erase"], "the store works after an erase")
        },
    ]
}
