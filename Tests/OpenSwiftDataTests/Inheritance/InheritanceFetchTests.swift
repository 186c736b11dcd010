import Foundation
import OpenSwiftData
import Testing

/// A hierarchy's models through the context's fetch, count, identifier and batch-delete paths,
/// on the SQLite store (file and memory), on PostgreSQL and on `InMemoryStore`.
@Suite struct InheritanceFetchTests {
    typealias Store = InheritanceStore

    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func container(_ store: Store) throws -> ModelContainer {
        try store.container(journeyTypes)
    }

    /// Four journeys, one of each class, saved.
    @discardableResult
    private func insertMixed(into context: ModelContext) throws -> [Journey] {
        let journeys: [Journey] = [
            Journey(name: "Plain", start: Self.start),
            PersonalJourney(name: "Family", start: Self.start + 86_400, reason: .family),
            BusinessJourney(name: "Sales", start: Self.start + 2 * 86_400, perdiem: 90),
            ConferenceJourney(name: "WWDC", start: Self.start + 3 * 86_400, perdiem: 150, talk: "Inheritance"),
        ]
        for journey in journeys { context.insert(journey) }
        try context.save()
        return journeys
    }

    @Test(arguments: Store.allCases)
    func fetchingTheRootReturnsEveryClassAsItself(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.start)]))
        #expect(fetched.map(\.name) == ["Plain", "Family", "Sales", "WWDC"])
        #expect(fetched.map { String(describing: type(of: $0)) } == ["Journey", "PersonalJourney", "BusinessJourney", "ConferenceJourney"])
        #expect((fetched[1] as? PersonalJourney)?.reason == .family)
        #expect((fetched[2] as? BusinessJourney)?.perdiem == 90)
        #expect((fetched[3] as? ConferenceJourney)?.talk == "Inheritance")
        #expect(fetched.map(\.persistentModelID.entityName) == ["Journey", "PersonalJourney", "BusinessJourney", "ConferenceJourney"])
    }

    @Test(arguments: Store.allCases)
    func fetchingASubclassReturnsItAndItsSubclassesOnly(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        let context = ModelContext(container)
        let business = try context.fetch(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\.perdiem, order: .reverse)]))
        #expect(business.map(\.perdiem) == [150, 90])
        #expect(try context.fetchCount(FetchDescriptor<BusinessJourney>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 4)
        #expect(try context.fetchCount(FetchDescriptor<PersonalJourney>()) == 1)
        #expect(try context.fetchIdentifiers(FetchDescriptor<BusinessJourney>()).map(\.entityName).sorted() == ["BusinessJourney", "ConferenceJourney"])
    }

    @Test(arguments: Store.allCases)
    func typeCheckAndConditionalCastFilterInsidePredicates(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        let context = ModelContext(container)
        let business = try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0 is BusinessJourney }, sortBy: [SortDescriptor(\.name)]))
        #expect(business.map(\.name) == ["Sales", "WWDC"])
        let generous = #Predicate<Journey> { (($0 as? BusinessJourney)?.perdiem ?? 0) > 100 }
        #expect(try context.fetch(FetchDescriptor(predicate: generous)).map(\.name) == ["WWDC"])
        #expect(try context.fetchCount(FetchDescriptor<Journey>(predicate: #Predicate { !($0 is BusinessJourney) })) == 2)
    }

    @Test(arguments: Store.allCases)
    func sortOffsetAndLimitSpanTheWholeHierarchy(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        var descriptor = FetchDescriptor<Journey>(predicate: #Predicate { $0.name != "Plain" }, sortBy: [SortDescriptor(\.start, order: .reverse)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == ["Sales", "Family"])
        #expect(try ModelContext(container).fetchCount(descriptor) == 2)
    }

    @Test(arguments: Store.allCases)
    func pendingSubclassInsertsAreFetchedOnceThroughTheRoot(_ store: Store) throws {
        let context = ModelContext(try container(store))
        context.insert(BusinessJourney(name: "Unsaved", start: Self.start, perdiem: 10))
        context.insert(Journey(name: "Also unsaved", start: Self.start))
        #expect(try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Also unsaved", "Unsaved"])
        #expect(try context.fetch(FetchDescriptor<BusinessJourney>()).map(\.name) == ["Unsaved"])
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 2)
    }

    @Test(arguments: Store.allCases)
    func batchDeleteIncludesSubclassesOnlyWhenAsked(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        let context = ModelContext(container)
        let epoch = Date(timeIntervalSince1970: 0)
        try context.delete(model: BusinessJourney.self, where: #Predicate { $0.start > epoch }, includeSubclasses: false)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.start)])).map(\.name) == ["Plain", "Family", "WWDC"])
        try context.delete(model: Journey.self, where: #Predicate { $0.name != "Plain" })
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Journey>()).map(\.name) == ["Plain"])
        try context.delete(model: Journey.self)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Journey>()) == 0)
    }

    @Test(arguments: Store.allCases)
    func changedSubclassValuesSurviveSaveAndRefetch(_ store: Store) throws {
        let container = try container(store)
        try insertMixed(into: ModelContext(container))
        let context = ModelContext(container)
        let conference = try #require(context.fetch(FetchDescriptor<ConferenceJourney>()).first)
        conference.talk = "Schema migration"
        conference.perdiem = 175
        conference.name = "WWDC26"
        try context.save()
        let again = try #require(ModelContext(container).fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "WWDC26" })).first as? ConferenceJourney)
        #expect(again.talk == "Schema migration")
        #expect(again.perdiem == 175)
    }

    @Test func subclassModelsReopenFromTheSQLiteFile() throws {
        let url = ScratchFiles.store("inheritance-reopen")
        let schema = Schema(journeyTypes)
        do {
            let container = try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url)])
            try insertMixed(into: ModelContext(container))
        }
        let reopened = try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url)])
        let fetched = try ModelContext(reopened).fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.start)]))
        #expect(fetched.map { String(describing: type(of: $0)) } == ["Journey", "PersonalJourney", "BusinessJourney", "ConferenceJourney"])
        #expect((fetched[1] as? PersonalJourney)?.reason == .family)
    }
}
