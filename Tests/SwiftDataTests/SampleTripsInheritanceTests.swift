import Foundation
import JSONStore
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import SwiftData
import Testing

// Laid out like the model code of Apple's iOS 26 SampleTrips, written against `import SwiftData`
// only: a `Trip` base class, `PersonalTrip` with a nested Codable enum, `BusinessTrip` with a
// per-diem, bucket list items and living accommodations.

@Model class Trip {
    #Index<Trip>([\.name], [\.startDate], [\.endDate], [\.name, \.startDate, \.endDate])
    #Unique<Trip>([\.name, \.startDate, \.endDate])

    @Attribute(.preserveValueOnDeletion) var name: String
    var destination: String
    @Attribute(.preserveValueOnDeletion) var startDate: Date
    @Attribute(.preserveValueOnDeletion) var endDate: Date

    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
    var bucketList: [BucketListItem] = []
    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip)
    var livingAccommodation: LivingAccommodation?

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

@Model class PersonalTrip: Trip {
    enum Reason: String, CaseIterable, Codable, Identifiable {
        case family
        case reunion
        case wellness
        case unknown

        var id: Self { self }
    }

    var reason: Reason

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture, reason: Reason) {
        self.reason = reason
        super.init(name: name, destination: destination, startDate: startDate, endDate: endDate)
    }
}

@Model class BusinessTrip: Trip {
    var perdiem: Double = 0.0

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture, perdiem: Double) {
        self.perdiem = perdiem
        super.init(name: name, destination: destination, startDate: startDate, endDate: endDate)
    }
}

@Model class BucketListItem {
    var title: String
    var details: String
    var hasReservation: Bool
    var isInPlan: Bool
    var trip: Trip?

    init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
        self.title = title
        self.details = details
        self.hasReservation = hasReservation
        self.isInPlan = isInPlan
    }
}

@Model class LivingAccommodation {
    var address: String
    var placeName: String
    var trip: Trip?

    init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

@Suite struct SampleTripsInheritanceTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqliteFile, sqliteMemory, inMemoryStore, jsonStore, postgres
        var testDescription: String { rawValue }
    }

    private static let day: TimeInterval = 86_400
    private static let start = Date(timeIntervalSince1970: 1_767_225_600)

    private static func scratchURL(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sampletrips-\(UUID().uuidString).\(suffix)")
    }

    /// A container on `store`; `url` reopens the same file (PostgreSQL: database).
    private func container(_ store: Store, url: URL? = nil) throws -> ModelContainer {
        let schema = Schema([Trip.self, PersonalTrip.self, BusinessTrip.self])
        switch store {
        case .sqliteFile:
            return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url ?? Self.scratchURL("store"))])
        case .sqliteMemory:
            return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        case .inMemoryStore:
            return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        case .jsonStore:
            return try ModelContainer(for: schema, configurations: [JSONStoreConfiguration(name: "Trips", url: url ?? Self.scratchURL("json"))])
        case .postgres:
            let database = try url?.absoluteString ?? TestDatabase.makeDatabase()
            return try ModelContainer(for: schema, configurations: [PostgresStoreConfiguration(schema: schema, url: database)])
        }
    }

    /// Four trips, one of each class and one more business trip, with bucket list items and an
    /// accommodation related to the subclass trips through the `Trip` base.
    private func insertMixedTrips(into context: ModelContext) throws {
        let family = PersonalTrip(name: "Grandma", destination: "Lisbon", startDate: Self.start,
                                  endDate: Self.start + 5 * Self.day, reason: .family)
        let sales = BusinessTrip(name: "Sales kickoff", destination: "Chicago", startDate: Self.start + 10 * Self.day,
                                 endDate: Self.start + 12 * Self.day, perdiem: 120)
        let offsite = BusinessTrip(name: "Offsite", destination: "Austin", startDate: Self.start + 20 * Self.day,
                                   endDate: Self.start + 22 * Self.day, perdiem: 80)
        let weekend = Trip(name: "Weekend", destination: "Porto", startDate: Self.start + 30 * Self.day,
                           endDate: Self.start + 32 * Self.day)
        for trip in [family, sales, offsite, weekend] as [Trip] { context.insert(trip) }
        sales.bucketList = [BucketListItem(title: "Deep dish", details: "Lou Malnati's", hasReservation: true, isInPlan: true)]
        sales.livingAccommodation = LivingAccommodation(address: "1 Wacker Dr", placeName: "Hotel")
        family.bucketList = [BucketListItem(title: "Tram 28", details: "Alfama", hasReservation: false, isInPlan: true)]
        try context.save()
    }

    @Test func schemaDescribesTheTripHierarchy() throws {
        let schema = try container(.inMemoryStore).schema
        let trip = try #require(schema.entity(for: Trip.self))
        #expect(Set(trip.subentities.map(\.name)) == ["PersonalTrip", "BusinessTrip"])
        #expect(schema.entity(for: BusinessTrip.self)?.superentity?.name == "Trip")
        #expect(schema.entity(for: PersonalTrip.self)?.storedProperties.map(\.name) == ["reason"])
    }

    @Test(arguments: Store.allCases)
    func mixedTripsAreFetchedAllByTypeAndDowncast(_ store: Store) throws {
        let container = try container(store)
        try insertMixedTrips(into: ModelContext(container))
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(all.map(\.name) == ["Grandma", "Sales kickoff", "Offsite", "Weekend"])
        let business = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }, sortBy: [SortDescriptor(\.name)]))
        #expect(business.map(\.name) == ["Offsite", "Sales kickoff"])
        #expect(business.compactMap { ($0 as? BusinessTrip)?.perdiem } == [80, 120])
        #expect((all.first as? PersonalTrip)?.reason == .family)
        #expect(try context.fetchCount(FetchDescriptor<BusinessTrip>()) == 2)
        #expect(try context.fetch(FetchDescriptor<PersonalTrip>()).map(\.reason) == [.family])
    }

    @Test(arguments: Store.allCases)
    func subclassTripsRelateToItemsAndAccommodations(_ store: Store) throws {
        let container = try container(store)
        try insertMixedTrips(into: ModelContext(container))
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map { $0.trip?.name } == ["Sales kickoff", "Grandma"])
        #expect(items.first?.trip is BusinessTrip)
        #expect(items.last?.trip is PersonalTrip)
        let accommodation = try #require(context.fetch(FetchDescriptor<LivingAccommodation>()).first)
        #expect((accommodation.trip as? BusinessTrip)?.perdiem == 120)
    }

    @Test(arguments: Store.allCases)
    func deletingASubclassTripCascadesToItsItemsAndAccommodation(_ store: Store) throws {
        let container = try container(store)
        try insertMixedTrips(into: ModelContext(container))
        let context = ModelContext(container)
        let sales = try #require(context.fetch(FetchDescriptor<BusinessTrip>(predicate: #Predicate { $0.perdiem > 100 })).first)
        context.delete(sales)
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<BucketListItem>()).map(\.title) == ["Tram 28"])
        #expect(try reader.fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
        #expect(try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Grandma", "Offsite", "Weekend"])
    }

    @Test(arguments: [Store.sqliteFile, .jsonStore, .postgres])
    func reopenedStoreGivesBackEachTripAsItsOwnClass(_ store: Store) throws {
        let url = switch store {
        case .postgres: try #require(URL(string: TestDatabase.makeDatabase()))
        default: Self.scratchURL(store == .jsonStore ? "json" : "store")
        }
        defer { try? FileManager.default.removeItem(at: url) }
        try insertMixedTrips(into: ModelContext(container(store, url: url)))
        let reopened = try container(store, url: url)
        let context = ModelContext(reopened)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map { String(describing: type(of: $0)) } == ["PersonalTrip", "BusinessTrip", "BusinessTrip", "Trip"])
        #expect((trips[0] as? PersonalTrip)?.reason == .family)
        #expect((trips[1] as? BusinessTrip)?.bucketList.map(\.title) == ["Deep dish"])
        #expect((trips[1] as? BusinessTrip)?.livingAccommodation?.placeName == "Hotel")
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0 is PersonalTrip })) == 1)
    }
}
