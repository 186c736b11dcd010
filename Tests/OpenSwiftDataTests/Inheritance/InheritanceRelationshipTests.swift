import Foundation
import OpenSwiftData
import Testing

/// Relationships whose destination is the hierarchy's root holding subclass models, and the
/// `.cascade` rule a subclass inherits, on every store.
@Suite struct InheritanceRelationshipTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: InheritanceStore.allCases)
    func toOneToTheRootHoldsASubclassModelAcrossContexts(_ store: InheritanceStore) throws {
        let container = try store.container(journeyTypes)
        let context = ModelContext(container)
        let business = BusinessJourney(name: "Sales", start: Self.start, perdiem: 90)
        let stop = Stop(place: "Cupertino")
        context.insert(business)
        context.insert(stop)
        stop.journey = business
        #expect(business.stops.map(\.place) == ["Cupertino"])
        try context.save()
        // Held: a model resolves its relationships through its context, which it does not retain.
        let reader = ModelContext(container)
        let fetched = try #require(reader.fetch(FetchDescriptor<Stop>()).first)
        let journey = try #require(fetched.journey)
        #expect(journey is BusinessJourney)
        #expect((journey as? BusinessJourney)?.perdiem == 90)
        #expect(journey.stops.map(\.place) == ["Cupertino"])
    }

    @Test(arguments: InheritanceStore.allCases)
    func deletingASubclassModelCascadesToItsInheritedRelationship(_ store: InheritanceStore) throws {
        let container = try store.container(journeyTypes)
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
