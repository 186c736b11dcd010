import Foundation
import OpenSwiftData
import Testing

/// Every shortcut behind ``UnsafeRuntime`` has a general path in plain Swift, taken when a
/// runtime check fails. These run the same work both ways and require the same answers, exactly:
/// value reads and comparisons, relationship upkeep and in-place appends, subclass models built
/// from fetched rows, predicates with captured values, batch deletes with cascades.
@Suite struct UnsafeRuntimeFallbackTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, inMemoryStore
        var testDescription: String { rawValue }

        func container(_ schema: Schema) throws -> ModelContainer {
            switch self {
            case .sqlite: return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
            case .inMemoryStore: return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
            }
        }
    }

    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func theSwitchTurnsEveryShortcutOffForTheCallingTaskOnly() {
        #expect(UnsafeRuntime.shortcutsEnabled)
        UnsafeRuntime.withShortcutsDisabled {
            #expect(!UnsafeRuntime.shortcutsEnabled)
            #expect(!AnyOptionalLayout.typeWordMarksNil)
            #expect(!AnyOptionalLayout.holdsArraysInline)
            #expect(InlineAttributes.equal("Rome", "Rome") == nil)
            #expect(InlineAttributes.address(in: [42], at: 0, holding: AnyOptionalLayout.typeWord(of: Int.self)) == nil)
        }
        #expect(UnsafeRuntime.shortcutsEnabled)
        #expect(InlineAttributes.equal("Rome", "Rome") == true)
    }

    /// What another thread saw; the semaphore orders its write before the read.
    private final class Seen: @unchecked Sendable { var enabled: Bool? }

    @Test func anotherThreadKeepsItsShortcutsMeanwhile() {
        let seen = Seen(), done = DispatchSemaphore(value: 0)
        UnsafeRuntime.withShortcutsDisabled {
            Thread.detachNewThread {
                seen.enabled = UnsafeRuntime.shortcutsEnabled
                done.signal()
            }
            done.wait()
        }
        #expect(seen.enabled == true)
    }

    @Test func theGeneralPathsReinterpretAndDowncastByCasting() {
        let node: Any = 42
        UnsafeRuntime.withShortcutsDisabled {
            #expect(UnsafeRuntime.reinterpret(7, as: Int.self) == 7)
            #expect(takeExactly(node, as: Int.self) == 42)
            let trip: AnyObject = Trip(name: "Rome", destination: "Italy", startDate: Self.start)
            #expect(UnsafeRuntime.downcast(trip, to: Trip.self).name == "Rome")
        }
    }

    @Test(arguments: Store.allCases)
    func valuesReadComparedAndQueriedAlikeOnBothPaths(_ store: Store) throws {
        let expected = [
            "α 7 2.5 false 1700000000.0 E621E1F8-C36C-495A-93FC-0C247A3E6E5F https://example.com/a 3 high 48.85 [\"x\", \"y\"] nil",
            "β -3 0.5 true 1700000000.0 E621E1F8-C36C-495A-93FC-0C247A3E6E5F https://example.com/a 3 high 48.85 [\"t\"] m",
            "matching 1: α",
            "unchanged after equal values: true",
            "changed after a new budget: true",
            "saved budget: 1201.0 notes: nil",
        ]
        let shortcuts = try values(store)
        let general = try UnsafeRuntime.withShortcutsDisabled { try values(store) }
        #expect(shortcuts == expected)
        #expect(general == expected)
    }

    private func values(_ store: Store) throws -> [String] {
        let container = try store.container(Schema([Sample.self, Trip.self]))
        let writer = ModelContext(container)
        writer.insert(Sample(text: "α", count: 7, ratio: 2.5, flag: false, when: Self.start))
        writer.insert(Sample(text: "β", count: -3, when: Self.start, tags: ["t"], maybe: "m"))
        let trip = Trip(name: "Rome", destination: "Italy", startDate: Self.start, budget: 1200)
        writer.insert(trip)
        try writer.save()

        let reader = ModelContext(container)
        var lines = try reader.fetch(FetchDescriptor<Sample>(sortBy: [SortDescriptor(\.text)])).map { sample in
            [sample.text, "\(sample.count)", "\(sample.ratio)", "\(sample.flag)", "\(sample.when.timeIntervalSince1970)",
             sample.uuid.uuidString, sample.link.absoluteString, "\(sample.blob.count)", sample.priority.rawValue,
             "\(sample.place.latitude)", "\(sample.tags)", sample.maybe ?? "nil"].joined(separator: " ")
        }
        let least = 0, text = "α"
        let matching = try reader.fetch(FetchDescriptor<Sample>(predicate: #Predicate { $0.count > least && $0.text == text }))
        lines.append("matching \(matching.count): \(matching.map(\.text).joined())")

        trip.name = ["Ro", "me"].joined()
        trip.startDate = Date(timeIntervalSince1970: Self.start.timeIntervalSince1970)
        trip.budget = 1000 + 200
        trip.notes = nil
        lines.append("unchanged after equal values: \(!writer.hasChanges)")
        trip.budget = 1201
        lines.append("changed after a new budget: \(writer.hasChanges)")
        try writer.save()
        let saved = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        lines.append("saved budget: \(saved.map(\.budget).first ?? 0) notes: \(saved.first?.notes ?? "nil")")
        return lines
    }

    @Test(arguments: Store.allCases)
    func relationshipsKeptAndCascadedAlikeOnBothPaths(_ store: Store) throws {
        let expected = [
            "legs appended: 5, each knowing its voyage: true",
            "fetched legs: a b c d e of Paris",
            "after removing the first: b c d e, a unlinked: true",
            "travelers of Paris: Ann Bo",
            "legs left after deleting Paris: 0, voyages: Rome",
        ]
        let shortcuts = try relationships(store)
        let general = try UnsafeRuntime.withShortcutsDisabled { try relationships(store) }
        #expect(shortcuts == expected)
        #expect(general == expected)
    }

    private func relationships(_ store: Store) throws -> [String] {
        let container = try store.container(Schema([Voyage.self, Ledger.self, Person.self]))
        let context = ModelContext(container)
        let paris = Voyage(name: "Paris"), rome = Voyage(name: "Rome")
        context.insert(paris)
        context.insert(rome)
        for title in ["a", "b", "c", "d", "e"] { paris.legs.append(Leg(title: title)) }
        let ann = Traveler(name: "Ann"), bo = Traveler(name: "Bo")
        paris.travelers = [ann, bo]
        var lines = ["legs appended: \(paris.legs.count), each knowing its voyage: \(paris.legs.allSatisfy { $0.voyage === paris })"]
        try context.save()

        let reader = ModelContext(container)
        let legs = try reader.fetch(FetchDescriptor<Leg>(sortBy: [SortDescriptor(\.title)]))
        lines.append("fetched legs: \(legs.map(\.title).joined(separator: " ")) of \(Set(legs.compactMap { $0.voyage?.name }).sorted().joined())")

        let first = paris.legs.removeFirst()
        lines.append("after removing the first: \(paris.legs.map(\.title).joined(separator: " ")), a unlinked: \(first.voyage == nil)")
        try context.save()
        let other = ModelContext(container)
        let travelers = try other.fetch(FetchDescriptor<Voyage>(predicate: #Predicate { $0.name == "Paris" })).first?.travelers ?? []
        lines.append("travelers of Paris: \(travelers.map(\.name).sorted().joined(separator: " "))")

        try context.delete(model: Voyage.self, where: #Predicate { $0.name == "Paris" })
        try context.save()
        let check = ModelContext(container)
        let remaining = try check.fetch(FetchDescriptor<Leg>()).filter { $0.voyage != nil }
        lines.append("legs left after deleting Paris: \(remaining.count), voyages: \(try check.fetch(FetchDescriptor<Voyage>()).map(\.name).joined())")
        return lines
    }

    @Test(arguments: Store.allCases)
    func subclassModelsBuiltFromRowsAlikeOnBothPaths(_ store: Store) throws {
        let expected = [
            "PersonalJourney Family reason family stops: ",
            "Journey Plain stops: ",
            "BusinessJourney Sales perdiem 90.0 stops: Lyon",
            "ConferenceJourney WWDC perdiem 150.0 talk Inheritance stops: Cupertino San Jose",
            "business journeys: Sales WWDC",
        ]
        let shortcuts = try subclasses(store)
        let general = try UnsafeRuntime.withShortcutsDisabled { try subclasses(store) }
        #expect(shortcuts == expected)
        #expect(general == expected)
    }

    private func subclasses(_ store: Store) throws -> [String] {
        let container = try store.container(Schema(journeyTypes))
        let writer = ModelContext(container)
        let sales = BusinessJourney(name: "Sales", start: Self.start, perdiem: 90)
        let wwdc = ConferenceJourney(name: "WWDC", start: Self.start, perdiem: 150, talk: "Inheritance")
        for journey in [Journey(name: "Plain", start: Self.start), PersonalJourney(name: "Family", start: Self.start, reason: .family), sales, wwdc] {
            writer.insert(journey)
        }
        for (place, journey) in [("Lyon", sales), ("Cupertino", wwdc), ("San Jose", wwdc)] as [(String, Journey)] {
            let stop = Stop(place: place)
            stop.journey = journey
            writer.insert(stop)
        }
        try writer.save()

        let reader = ModelContext(container)
        var lines = try reader.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)])).map { journey -> String in
            let stops = journey.stops.map(\.place).sorted().joined(separator: " ")
            switch journey {
            case let conference as ConferenceJourney:
                return "ConferenceJourney \(conference.name) perdiem \(conference.perdiem) talk \(conference.talk) stops: \(stops)"
            case let business as BusinessJourney: return "BusinessJourney \(business.name) perdiem \(business.perdiem) stops: \(stops)"
            case let personal as PersonalJourney: return "PersonalJourney \(personal.name) reason \(personal.reason.rawValue) stops: \(stops)"
            default: return "Journey \(journey.name) stops: \(stops)"
            }
        }
        let business = try reader.fetch(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\.name)]))
        lines.append("business journeys: \(business.map(\.name).joined(separator: " "))")
        return lines
    }
}
