import Foundation
import Observation
import OpenSwiftData
import Testing

/// Counts `onChange` calls; observation callbacks are `@Sendable`.
private final class Changes: @unchecked Sendable {
    var count = 0
    var budgetsSeen: [Double] = []
    /// The observed model, for an observer that reads it (the closure cannot capture it).
    var trip: Trip?
}

@Suite struct ModelObservationTests {
    @Test func changingAReadPropertyIsReportedOnce() {
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch, budget: 1)
        let changes = Changes()
        withObservationTracking { _ = trip.budget } onChange: { changes.count += 1 }
        trip.budget = 2
        trip.budget = 3
        #expect(changes.count == 1)
        #expect(trip.budget == 3)
    }

    @Test func changingAPropertyThatWasNotReadIsNotReported() {
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch, budget: 1)
        let changes = Changes()
        withObservationTracking { _ = trip.budget } onChange: { changes.count += 1 }
        trip.name = "Lyon"
        #expect(changes.count == 0)
        #expect(trip.name == "Lyon")
    }

    @Test func anObserverMayReadTheModelWhileItChanges() {
        let trip = Trip(name: "Paris", destination: "France", startDate: epoch, budget: 1)
        let changes = Changes()
        changes.trip = trip
        withObservationTracking { _ = trip.budget } onChange: {
            // Called before the change is made: reads the old value.
            guard let trip = changes.trip else { return }
            changes.budgetsSeen.append(trip.budget)
            _ = trip.name
        }
        trip.budget = 2
        #expect(changes.budgetsSeen == [1])
        #expect(trip.budget == 2)
    }

    @Test func fetchedModelsAreObservable() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch))
        try context.save()
        let reader = ModelContext(container)
        let fetched = try reader.fetch(FetchDescriptor<Trip>())
        let changes = Changes()
        withObservationTracking { _ = fetched[0].name } onChange: { changes.count += 1 }
        fetched[0].name = "Lyon"
        #expect(changes.count == 1)
        #expect(fetched.map(\.name) == ["Lyon"])
    }
}
