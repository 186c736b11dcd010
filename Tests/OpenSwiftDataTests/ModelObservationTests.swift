import Foundation
import Observation
import OpenSwiftData
import Testing

@Model final class Gauge {
    var level: Int
    var label: String

    init(level: Int, label: String) {
        self.level = level
        self.label = label
    }
}

/// Counts `onChange` calls; observation callbacks are `@Sendable`.
private final class Changes: @unchecked Sendable {
    var count = 0
    var levelsSeen: [Int] = []
    /// The observed model, for an observer that reads it (the closure cannot capture it).
    var gauge: Gauge?
}

@Suite struct ModelObservationTests {
    @Test func changingAReadPropertyIsReportedOnce() {
        let gauge = Gauge(level: 1, label: "boiler")
        let changes = Changes()
        withObservationTracking { _ = gauge.level } onChange: { changes.count += 1 }
        gauge.level = 2
        gauge.level = 3
        #expect(changes.count == 1)
        #expect(gauge.level == 3)
    }

    @Test func changingAPropertyThatWasNotReadIsNotReported() {
        let gauge = Gauge(level: 1, label: "boiler")
        let changes = Changes()
        withObservationTracking { _ = gauge.level } onChange: { changes.count += 1 }
        gauge.label = "furnace"
        #expect(changes.count == 0)
        #expect(gauge.label == "furnace")
    }

    @Test func anObserverMayReadTheModelWhileItChanges() {
        let gauge = Gauge(level: 1, label: "boiler")
        let changes = Changes()
        changes.gauge = gauge
        withObservationTracking { _ = gauge.level } onChange: {
            // Called before the change is made: reads the old value.
            guard let gauge = changes.gauge else { return }
            changes.levelsSeen.append(gauge.level)
            _ = gauge.label
        }
        gauge.level = 2
        #expect(changes.levelsSeen == [1])
        #expect(gauge.level == 2)
    }

    @Test func fetchedModelsAreObservable() throws {
        let container = try ModelContainer(for: Gauge.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Gauge(level: 1, label: "boiler"))
        try context.save()
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Gauge>())
        let changes = Changes()
        withObservationTracking { _ = fetched[0].label } onChange: { changes.count += 1 }
        fetched[0].label = "furnace"
        #expect(changes.count == 1)
        #expect(fetched.map(\.label) == ["furnace"])
    }
}
