import Foundation
import OpenSwiftData
import Testing

/// The `.cascade` rule a subclass inherits from its superclass's relationship.
@Suite struct InheritanceRelationshipTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func container() throws -> ModelContainer {
        try ModelContainer(for: Schema(journeyTypes), configurations: [InMemoryStoreConfiguration()])
    }

    @Test func deletingASubclassModelCascadesToItsInheritedRelationship() throws {
        let container = try container()
        let context = ModelContext(container)
        let conference = ConferenceJourney(name: "WWDC", start: Self.start, perdiem: 150, talk: "Inheritance")
        context.insert(conference)
        for place in ["Moscone", "Apple Park"] {
            let stop = Stop(place: place)
            context.insert(stop)
            conference.stops.append(stop)
        }
        try context.save()
        let other = ModelContext(container)
        let fetched = try #require(other.fetch(FetchDescriptor<Journey>()).first)
        #expect(fetched.stops.count == 2)
        other.delete(fetched)
        try other.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Stop>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Journey>()) == 0)
    }
}
