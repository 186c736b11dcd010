import Foundation
import Observation
import OpenSwiftData
import Synchronization
import Testing

/// A `ResultsObserver` fetches again after each save of its container that touches its entity,
/// from any context, and only then.
@Suite struct ResultsObserverTests {
    let container: ModelContainer
    let writer: ModelContext
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        container = try ModelContainer(for: Trip.self, Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        writer = ModelContext(container)
        writer.insert(Trip(name: "Lisbon", destination: "Europe", startDate: start, budget: 900))
        writer.insert(Trip(name: "Kyoto", destination: "Asia", startDate: start, budget: 2_500))
        try writer.save()
    }

    @Test func resultsFollowInsertsUpdatesAndDeletesSavedByAnotherContext() throws {
        let observer = try ResultsObserver<Trip, Never>(sortBy: [SortDescriptor(\.name)], modelContainer: container)
        #expect(observer.results.map(\.name) == ["Kyoto", "Lisbon"])

        writer.insert(Trip(name: "Accra", destination: "Africa", startDate: start))
        try writer.save()
        #expect(observer.results.map(\.name) == ["Accra", "Kyoto", "Lisbon"])

        let kyoto = try #require(try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Kyoto" })).first)
        writer.delete(kyoto)
        try writer.save()
        #expect(observer.results.map(\.name) == ["Accra", "Lisbon"])
    }

    @Test func resultsShowValuesAnotherContextSaved() throws {
        let observer = try ResultsObserver<Trip, Never>(filterBy: #Predicate { $0.name == "Lisbon" }, modelContainer: container)
        #expect(observer.results.first?.budget == 900)
        let lisbon = try #require(try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        lisbon.budget = 1_100
        try writer.save()
        #expect(observer.results.first?.budget == 1_100)
    }

    @Test func batchDeleteByAnotherContextRemovesTheModels() throws {
        let observer = try ResultsObserver<Trip, Never>(modelContainer: container)
        try writer.delete(model: Trip.self, where: #Predicate { $0.budget < 1_000 })
        #expect(observer.results.map(\.name) == ["Kyoto"])
    }

    @Test func filterAppliesToModelsSavedLater() throws {
        let observer = try ResultsObserver<Trip, Never>(filterBy: #Predicate { $0.budget > 1_000 }, modelContainer: container)
        #expect(observer.results.map(\.name) == ["Kyoto"])
        writer.insert(Trip(name: "Quito", destination: "Americas", startDate: start, budget: 1_200))
        writer.insert(Trip(name: "Porto", destination: "Europe", startDate: start, budget: 300))
        try writer.save()
        #expect(observer.results.map(\.name).sorted() == ["Kyoto", "Quito"])
    }

    @Test func changingTheFilterOrSortFetchesAtOnce() throws {
        let observer = try ResultsObserver<Trip, Never>(sortBy: [SortDescriptor(\.name)], modelContainer: container)
        observer.sortBy = [SortDescriptor(\.budget, order: .reverse)]
        #expect(observer.results.map(\.name) == ["Kyoto", "Lisbon"])
        observer.filterBy = #Predicate { $0.destination == "Europe" }
        #expect(observer.results.map(\.name) == ["Lisbon"])
        #expect(observer.fetchDescriptor.sortBy.count == 1)
    }

    @Test func savesOfOtherEntitiesOrContainersLeaveTheResultsUntouched() throws {
        let observer = try ResultsObserver<Trip, Never>(modelContainer: container)
        let changes = Mutex(0)
        withObservationTracking { _ = observer.results } onChange: { changes.withLock { $0 += 1 } }
        writer.insert(Item(timestamp: start))
        try writer.save()
        let elsewhere = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let other = ModelContext(elsewhere)
        other.insert(Trip(name: "Oslo", destination: "Europe", startDate: start))
        try other.save()
        #expect(changes.withLock { $0 } == 0)

        writer.insert(Trip(name: "Lima", destination: "Americas", startDate: start))
        try writer.save()
        #expect(changes.withLock { $0 } == 1)
        #expect(observer.results.count == 3)
    }

    @Test func sectionsGroupByTheKeyPathInOrderOfFirstAppearance() throws {
        writer.insert(Trip(name: "Rome", destination: "Europe", startDate: start))
        try writer.save()
        let observer = try ResultsObserver<Trip, String>(sortBy: [SortDescriptor(\.name)], sectionBy: \.destination, modelContainer: container)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["Asia", "Europe"])
        #expect(sections.map { $0.map(\.name) } == [["Kyoto"], ["Lisbon", "Rome"]])
        #expect(sections[sectionTitle: "Europe"]?.count == 2)
        #expect(sections[sectionTitle: "Africa"] == nil)
        #expect(observer.fetchDescriptor.sortBy.count == 2)

        writer.insert(Trip(name: "Accra", destination: "Africa", startDate: start))
        try writer.save()
        #expect(observer.sections?.sectionTitles == ["Africa", "Asia", "Europe"])
    }

    @Test func modelsWithoutAnOptionalTitleFormTheEmptyTitledSection() throws {
        writer.insert(Trip(name: "Rome", destination: "Europe", startDate: start, notes: "pasta"))
        try writer.save()
        let observer = try ResultsObserver<Trip, String>(sectionBy: \.notes, modelContainer: container)
        #expect(observer.sections?.sectionTitles == ["", "pasta"])
        #expect(observer.sections?[sectionTitle: ""]?.count == 2)
    }

    @Test func unsectionedObserverHasNoSections() throws {
        let observer = try ResultsObserver<Trip, Never>(modelContainer: container)
        #expect(observer.sections == nil)
    }

    @MainActor @Test func observerMadeOnAnActorFetchesOnThatActor() async throws {
        let observer = try ResultsObserver<Trip, Never>(modelContext: container.mainContext)
        let context = container.mainContext
        context.insert(Trip(name: "Hanoi", destination: "Asia", startDate: start))
        try context.save()
        for _ in 0..<100 where observer.results.count != 3 {
            await Task.yield()
        }
        #expect(observer.results.count == 3)
    }
}
