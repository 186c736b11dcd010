import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    static let queries: [Self] = [
        Self("everyPredicateConstructSelectsWhatPredicateEvaluateSelects") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let items = ConformanceFixtures.items()
            let ann = ConformanceOwner(name: "Ann")
            let bob = ConformanceOwner(name: "Bob")
            for item in items { context.insert(item) }
            context.insert(ann)
            context.insert(bob)
            items[1].owner = ann
            items[4].owner = ann
            items[7].owner = bob
            try context.save()
            let reader = ModelContext(container)  // kept alive: evaluating `owner` needs the models' context
            let all = try reader.fetch(FetchDescriptor<ConformanceItem>())
            for example in ConformancePredicates.all(ownerID: ann.persistentModelID, itemIDs: items.map(\.persistentModelID)) {
                let expected = try all.filter { try example.predicate.evaluate($0) }.map(\.small).sorted()
                let fetched = try ModelContext(container).fetch(FetchDescriptor(predicate: example.predicate)).map(\.small).sorted()
                #expect(fetched == expected, "#Predicate \(example.name)")
                let counted = try ModelContext(container).fetchCount(FetchDescriptor(predicate: example.predicate))
                #expect(counted == expected.count, "fetchCount with #Predicate \(example.name)")
            }
        },
        Self("sortsOrderAsSortDescriptorsDoWithTiesAndNils") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            let all = try ModelContext(container).fetch(FetchDescriptor<ConformanceItem>())
            let unique = SortDescriptor(\ConformanceItem.small)
            let orders: [(String, [SortDescriptor<ConformanceItem>])] = [
                ("optional Int, nils first", [SortDescriptor(\.rating), unique]),
                ("optional Int reversed, nils last", [SortDescriptor(\.rating, order: .reverse), unique]),
                ("Int with ties", [SortDescriptor(\.count), unique]),
                ("two keys with ties", [SortDescriptor(\.big, order: .reverse), SortDescriptor(\.count), unique]),
                ("Date", [SortDescriptor(\.date), unique]),
                ("optional Date reversed", [SortDescriptor(\.dueDate, order: .reverse), unique]),
                ("Float", [SortDescriptor(\.weight), unique]),
                ("String", [SortDescriptor(\.name), unique]),
                ("optional String", [SortDescriptor(\.notes), unique]),
                ("UUID", [SortDescriptor(\.uuid), unique]),
                ("unique key reversed", [SortDescriptor(\.small, order: .reverse)]),
            ]
            for (name, sortBy) in orders {
                let expected = all.sorted(using: sortBy).map(\.small)
                let fetched = try ModelContext(container).fetch(FetchDescriptor(sortBy: sortBy)).map(\.small)
                #expect(fetched == expected, "sort by \(name)")
                // Without the unique key, tied models may come in any order, but ties stay together.
                let tied = Array(sortBy.dropLast())
                guard !tied.isEmpty else { continue }
                let loose = try ModelContext(container).fetch(FetchDescriptor(sortBy: tied))
                #expect(zip(loose, loose.dropFirst()).allSatisfy { pair in
                    tied.lazy.map { $0.compare(pair.0, pair.1) }.first { $0 != .orderedSame } != .orderedDescending
                }, "sort by \(name) without a tie-breaker keeps the order")
                #expect(Set(loose.map(\.small)) == Set(expected), "sort by \(name) without a tie-breaker returns every model")
            }
        },
        Self("limitAndOffsetPageTheSortedResult") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            let cases: [(offset: Int?, limit: Int?, expected: [Int16])] = [
                (nil, 3, [9, 8, 7]), (2, nil, [7, 6, 5, 4, 3, 2, 1, 0]), (2, 3, [7, 6, 5]),
                (9, 5, [0]), (10, 5, []), (50, nil, []), (0, 100, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
            ]
            for (offset, limit, expected) in cases {
                var descriptor = FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small, order: .reverse)])
                descriptor.fetchOffset = offset
                descriptor.fetchLimit = limit
                let context = ModelContext(container)
                #expect(try context.fetch(descriptor).map(\.small) == expected, "offset \(offset.debugDescription), limit \(limit.debugDescription)")
                #expect(try context.fetchIdentifiers(descriptor) == context.fetch(descriptor).map(\.persistentModelID),
                        "fetchIdentifiers pages like fetch: offset \(offset.debugDescription), limit \(limit.debugDescription)")
            }
            var filtered = FetchDescriptor<ConformanceItem>(predicate: #Predicate { $0.isActive }, sortBy: [SortDescriptor(\.small)])
            filtered.fetchOffset = 1
            filtered.fetchLimit = 2
            #expect(try ModelContext(container).fetch(filtered).map(\.small) == [2, 4], "paging applies after filtering")
        },
        Self("fetchCountAndFetchIdentifiersAgreeWithFetch") { harness in
            let container = try harness.makeContainer()
            try harness.saveItems(in: container)
            let context = ModelContext(container)
            let descriptors: [FetchDescriptor<ConformanceItem>] = [
                FetchDescriptor(),
                FetchDescriptor(predicate: #Predicate { $0.rating != nil }),
                // `small` breaks the ties in `date`: a store may return tied rows in any order.
                FetchDescriptor(predicate: #Predicate { $0.name.contains("a") }, sortBy: [SortDescriptor(\.date), SortDescriptor(\.small)]),
                FetchDescriptor(predicate: #Predicate { _ in false }),
            ]
            for descriptor in descriptors {
                let fetched = try context.fetch(descriptor)
                #expect(try context.fetchCount(descriptor) == fetched.count)
                let identifiers = try context.fetchIdentifiers(descriptor)
                if descriptor.sortBy.isEmpty {
                    #expect(Set(identifiers) == Set(fetched.map(\.persistentModelID)))
                } else {
                    #expect(identifiers == fetched.map(\.persistentModelID))
                }
            }
            #expect(try context.fetchCount(FetchDescriptor<ConformanceItem>()) == 10)
            #expect(try context.fetchCount(FetchDescriptor<ConformanceOwner>()) == 0, "another entity's count is its own")
        },
    ]
}
