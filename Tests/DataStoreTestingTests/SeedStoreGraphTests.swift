import Foundation
import OpenSwiftData
import Testing

@Model final class GraphTrip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \GraphItem.trip) var bucketList: [GraphItem] = []
    @Relationship(deleteRule: .cascade, inverse: \GraphStay.trip) var accommodation: GraphStay?
    var travelers: [GraphTraveler] = []
    init(name: String) { self.name = name }
}

@Model final class GraphItem {
    var title: String
    var trip: GraphTrip?
    init(title: String) { self.title = title }
}

@Model final class GraphStay {
    var place: String
    var trip: GraphTrip?
    init(place: String) { self.place = place }
}

@Model final class GraphTraveler {
    var name: String
    var trips: [GraphTrip] = []
    var buddy: GraphTraveler?
    init(name: String) { self.name = name }
}

/// The WWDC24 sample store only archives `DefaultSnapshot`s (and copies inserted ones without
/// remapping their references): a graph saved through it must still read back whole.
@Suite struct SeedStoreGraphTests {
    @Test func aGraphWithACycleRoundTripsThroughTheSampleJSONStore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("trips.json")
        func open() throws -> ModelContainer {
            try ModelContainer(for: Schema([GraphTrip.self]), configurations: [SampleJSONStoreConfiguration(name: "graph", fileURL: url)])
        }

        let writer = ModelContext(try open())
        let paris = GraphTrip(name: "Paris")
        paris.bucketList = [GraphItem(title: "Louvre"), GraphItem(title: "Orsay")]
        paris.accommodation = GraphStay(place: "Hôtel du Louvre")
        let ada = GraphTraveler(name: "Ada"), bob = GraphTraveler(name: "Bob")
        paris.travelers = [ada, bob]
        ada.buddy = bob
        bob.buddy = ada
        writer.insert(paris)
        try writer.save()
        #expect(!writer.hasChanges)

        let reader = ModelContext(try open())
        let trips = try reader.fetch(FetchDescriptor<GraphTrip>())
        #expect(trips.map(\.name) == ["Paris"])
        let trip = try #require(trips.first)
        #expect(trip.bucketList.map(\.title).sorted() == ["Louvre", "Orsay"])
        #expect(trip.bucketList.allSatisfy { $0.trip === trip })
        #expect(trip.accommodation?.place == "Hôtel du Louvre")
        #expect(trip.accommodation?.trip === trip)
        let travelers = trip.travelers.sorted { $0.name < $1.name }
        #expect(travelers.map(\.name) == ["Ada", "Bob"])
        #expect(travelers[0].buddy === travelers[1] && travelers[1].buddy === travelers[0])
        #expect(travelers.allSatisfy { $0.trips.first === trip })
    }
}
