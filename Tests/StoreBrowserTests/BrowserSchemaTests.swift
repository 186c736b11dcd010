import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenSwiftData
import SampleTrips
import Testing

/// The schema page: every entity with its count, and a diagram the server draws.
@Suite struct BrowserSchemaTests {
    @Test func theSchemaPageCountsEveryEntity() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try harness.seed { context in
            for number in 1...3 {
                let trip = Trip(name: "Trip \(number)", destination: "Somewhere", startDate: .now, endDate: .now)
                context.insert(trip)
                trip.bucketList = [BucketListItem(title: "Item \(number)")]
            }
        }
        try await harness.test { client in
            let page = try await LoggedInClient.logIn(client).get("/browse/")
            #expect(page.main.contains(#"<tr><th scope="row"><a href="/browse/entity/Trip">Trip</a></th><td class="number">3</td><td>name, destination, startDate, endDate, budgetCents, notes</td><td>bucketList → BucketListItem, livingAccommodation → LivingAccommodation</td><td></td></tr>"#))
            #expect(page.main.contains(#"<td class="number">0</td><td>placeName, address</td>"#))
            #expect(page.main.contains("3 entities, 6 models in store"))
            #expect(page.main.contains(#"<main id="main" tabindex="-1" data-live="/browse/events">"#))
            #expect(page.text.contains(#"<nav aria-label="Entities">"#))
        }
    }

    @Test func theDiagramShowsDeleteRulesInheritanceAndLinks() async throws {
        let harness = try BrowserHarness(schema: vehicleSchema)
        defer { harness.removeStore() }
        try await harness.test { client in
            let svg = try await LoggedInClient.logIn(client).get("/browse/diagram.svg")
            #expect(svg.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(svg.text.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" class="schema-diagram" role="img" aria-labelledby="diagram-title diagram-desc""#))
            #expect(svg.text.contains(#"<line class="inheritance" "#))
            #expect(svg.text.contains("<title>BrowsedTruck inherits from BrowsedVehicle</title></line>"))
            #expect(svg.text.contains(#"<text class="relationship-label" "#))
            #expect(svg.text.contains(">towedBy [to-one] nullify</text>"))
            #expect(svg.text.contains(#"<a href="/browse/entity/BrowsedTruck" class="entity">"#))
            #expect(svg.text.contains(">axles: Int</text>"))
            #expect(svg.text.contains("<desc id=\"diagram-desc\">BrowsedVehicle has 1 attributes; towedBy, to-one to BrowsedVehicle, delete rule nullify. BrowsedTruck inherits from BrowsedVehicle and has"))
        }
    }

    @Test func aClassesTableLinksToItsSubclassesTables() async throws {
        let harness = try BrowserHarness(schema: vehicleSchema)
        defer { harness.removeStore() }
        try harness.seed { context in
            let car = BrowsedVehicle(label: "Car")
            let truck = BrowsedTruck(label: "Truck", axles: 3)
            context.insert(car)
            context.insert(truck)
            car.towedBy = truck
        }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let table = try await user.get("/browse/entity/BrowsedVehicle")
            #expect(table.main.contains(#"<ul class="subclasses"><li><a href="/browse/entity/BrowsedTruck">BrowsedTruck</a> (1)</li></ul>"#))
            #expect(table.main.contains(#"<tr><th scope="row"><a href="/browse/model/BrowsedVehicle/1">1</a></th><td>Car</td><td><a href="/browse/model/BrowsedTruck/2">BrowsedTruck 2: Truck</a></td></tr>"#))
            let truck = try await user.get("/browse/entity/BrowsedTruck")
            #expect(truck.main.contains("Inherits from <a href=\"/browse/entity/BrowsedVehicle\">BrowsedVehicle</a>."))
            #expect(truck.main.contains(#"<tr><th scope="row"><a href="/browse/model/BrowsedTruck/2">2</a></th><td>Truck</td><td class="number">3</td><td class="nil-cell"><span class="nil">nil</span></td></tr>"#))
            let edit = try await user.post("/browse/model/BrowsedTruck/2/edit/label", [("value", "Lorry")], formOn: "/browse/model/BrowsedTruck/2/edit/label")
            #expect(edit.status == .seeOther)
            #expect(try ModelContext(harness.container).fetch(FetchDescriptor<BrowsedTruck>()).map(\.label) == ["Lorry"])
        }
    }
}
