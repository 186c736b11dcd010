import Foundation
import Observation
import OpenSwiftData
import Testing

/// Changing a to-many through its `_modify` accessor (`voyage.legs.append(leg)`): appends link and
/// insert at once, anything else is compared with the list before, at once or at the save.
@Suite struct InPlaceAppendTests {
    private func names(_ legs: [Leg]) -> [String] { legs.map(\.title) }

    /// Runs `change` on the array in one access, as `legs.append` does.
    private func modify(_ legs: inout [Leg], _ change: (inout [Leg]) -> Void) { change(&legs) }

    @Test(arguments: GraphStore.allCases)
    func anAppendLinksTheInverseAndInsertsTheModelAtOnce(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let voyage = Voyage(name: "Paris")
        context.insert(voyage)
        let louvre = Leg(title: "Louvre")
        voyage.legs.append(louvre)
        #expect(louvre.voyage === voyage)
        #expect(louvre.modelContext === context)
        #expect(context.insertedModelsArray.count == 2)
    }

    @Test(arguments: GraphStore.allCases)
    func manyAppendsOneAtATimeAreAllSavedWithTheirInverse(store: GraphStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        let voyage = Voyage(name: "Long")
        context.insert(voyage)
        for index in 0..<300 { voyage.legs.append(Leg(title: "leg \(index)")) }
        try context.save()

        let reader = ModelContext(container)
        let legs = try reader.fetch(FetchDescriptor<Leg>())
        #expect(legs.count == 300)
        #expect(Set(legs.map { $0.voyage?.name }) == ["Long"])
        #expect(try reader.fetch(FetchDescriptor<Voyage>()).first?.legs.count == 300)
    }

    @Test(arguments: GraphStore.allCases)
    func removingAndReplacingInPlaceUnlinkAtOnce(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let voyage = Voyage(name: "Paris")
        context.insert(voyage)
        let a = Leg(title: "a"), b = Leg(title: "b"), c = Leg(title: "c"), d = Leg(title: "d")
        voyage.legs = [a, b, c]
        try context.save()

        voyage.legs.removeFirst()
        #expect(a.voyage == nil)
        voyage.legs[0] = d
        #expect(b.voyage == nil)
        #expect(d.voyage === voyage)
        #expect(names(voyage.legs) == ["d", "c"])
    }

    @Test(arguments: GraphStore.allCases)
    func insertingAtTheFrontIsNotTakenForAnAppend(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let voyage = Voyage(name: "Paris")
        context.insert(voyage)
        let a = Leg(title: "a"), front = Leg(title: "front")
        voyage.legs.append(a)
        voyage.legs.insert(front, at: 0)
        #expect(front.voyage === voyage)
        #expect(front.modelContext === context)
        #expect(names(voyage.legs) == ["front", "a"])
    }

    /// The first and the old last element stay and the list grows, yet an element in the middle
    /// was replaced: the append links at once, the replacement when the context saves.
    @Test(arguments: GraphStore.allCases)
    func aChangeInTheMiddleBesideAnAppendIsSettledBySave(store: GraphStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        let voyage = Voyage(name: "Paris")
        context.insert(voyage)
        let a = Leg(title: "a"), b = Leg(title: "b"), c = Leg(title: "c"), d = Leg(title: "d"), e = Leg(title: "e")
        voyage.legs = [a, b, c]
        try context.save()

        modify(&voyage.legs) { legs in
            legs[1] = d
            legs.append(e)
        }
        #expect(e.voyage === voyage)
        try context.save()
        #expect(b.voyage == nil)
        #expect(d.voyage === voyage)
        let reader = ModelContext(container)
        let stored = try reader.fetch(FetchDescriptor<Voyage>()).first
        #expect(stored.map { names($0.legs).sorted() } == ["a", "c", "d", "e"])
        #expect(try reader.fetch(FetchDescriptor<Leg>(sortBy: [SortDescriptor(\.title)])).map { $0.voyage?.name }
                == ["Paris", nil, "Paris", "Paris", "Paris"])
    }

    @Test(arguments: GraphStore.allCases)
    func aRollbackAfterAppendsInPlaceRestoresTheSavedList(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let voyage = Voyage(name: "Paris")
        context.insert(voyage)
        voyage.legs.append(Leg(title: "a"))
        try context.save()
        let b = Leg(title: "b")
        voyage.legs.append(b)
        voyage.legs.append(Leg(title: "c"))
        context.rollback()
        #expect(names(voyage.legs) == ["a"])
        #expect(b.modelContext == nil)
        #expect(try context.fetchCount(FetchDescriptor<Leg>()) == 1)
    }

    @Test(arguments: GraphStore.allCases)
    func appendsBeforeTheParentIsInsertedLinkWhenItIs(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let voyage = Voyage(name: "Paris")
        let a = Leg(title: "a"), b = Leg(title: "b")
        voyage.legs.append(a)
        voyage.legs.append(b)
        context.insert(voyage)
        #expect(a.voyage === voyage && b.voyage === voyage)
        #expect(a.modelContext === context && b.modelContext === context)
    }

    @Test(arguments: GraphStore.allCases)
    func anAppendToAFetchedListNotReadYetResolvesItFirst(store: GraphStore) throws {
        let container = try store.container()
        let setup = ModelContext(container)
        let voyage = Voyage(name: "Paris")
        setup.insert(voyage)
        voyage.legs = [Leg(title: "a")]
        try setup.save()

        let context = ModelContext(container)
        let fetched = try #require(try context.fetch(FetchDescriptor<Voyage>()).first)
        let b = Leg(title: "b")
        fetched.legs.append(b)
        #expect(b.voyage === fetched)
        #expect(names(fetched.legs) == ["a", "b"])
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<Voyage>()).first.map { names($0.legs).sorted() } == ["a", "b"])
    }

    /// The parent appended to and then deleted before any save is gone by the time the context
    /// saves; the save must not look at it.
    @Test(arguments: GraphStore.allCases)
    func aParentDeletedAfterAppendsInPlaceIsLeftOutOfTheSave(store: GraphStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        let kept = Voyage(name: "Kept")
        context.insert(kept)
        do {
            let dropped = Voyage(name: "Dropped")
            context.insert(dropped)
            dropped.legs.append(Leg(title: "a"))
            context.delete(dropped)
        }
        kept.legs.append(Leg(title: "b"))
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<Voyage>()).map(\.name) == ["Kept"])
        #expect(try reader.fetch(FetchDescriptor<Leg>()).map(\.title) == ["b"])
    }

    @Test func anAppendInPlaceIsReportedToObserversOnce() throws {
        let voyage = Voyage(name: "Paris")
        let changes = AppendChanges()
        withObservationTracking { _ = voyage.legs } onChange: { changes.count += 1 }
        voyage.legs.append(Leg(title: "a"))
        voyage.legs.append(Leg(title: "b"))
        #expect(changes.count == 1)
        #expect(voyage.legs.count == 2)
    }
}

/// Counts `onChange` calls; observation callbacks are `@Sendable`.
private final class AppendChanges: @unchecked Sendable {
    var count = 0
}
