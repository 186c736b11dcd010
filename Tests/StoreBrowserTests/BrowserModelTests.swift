import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenSwiftData
import SampleTrips
import StoreBrowser
import Testing

/// A model's page, and editing and deleting it through a `ModelContext`: the model's setter, its
/// unique constraints and delete rules apply, and a failed save shows the store's error.
@Suite struct BrowserModelTests {
    static let day = Date(timeIntervalSince1970: 1_780_272_000)

    func tripHarness(mode: StoreBrowserConfiguration.Mode = .edit) throws -> BrowserHarness {
        let harness = try BrowserHarness(mode: mode)
        try harness.seed { context in
            let paris = Trip(name: "Paris", destination: "France", startDate: Self.day, endDate: Self.day, budgetCents: 120_000, notes: "Louvre")
            context.insert(paris)
            paris.bucketList = [BucketListItem(title: "See the Louvre"), BucketListItem(title: "Eiffel <tower>")]
            paris.livingAccommodation = LivingAccommodation(placeName: "Hotel du Nord", address: "102 Quai de Jemmapes")
            context.insert(Trip(name: "Oslo", destination: "Norway", startDate: Self.day, endDate: Self.day))
        }
        return harness
    }

    func trips(_ harness: BrowserHarness) throws -> [String] {
        try ModelContext(harness.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map { "\($0.name) \($0.budgetCents) \($0.notes ?? "nil")" }
    }

    @Test func aModelPageShowsAttributesRelationshipsAndHistory() async throws {
        let harness = try tripHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let page = try await LoggedInClient.logIn(client).get("/browse/model/Trip/1")
            #expect(page.status == .ok)
            #expect(page.main.contains("<h1>Trip 1: Paris</h1>"))
            #expect(page.main.contains(#"<tr><th scope="row">budgetCents</th><td class="type">Int</td><td class="value">120000</td><td><a href="/browse/model/Trip/1/edit/budgetCents">Edit<span class="visually-hidden"> budgetCents</span></a></td></tr>"#))
            #expect(page.main.contains(#"<tr><th scope="row">notes</th><td class="type">String?</td><td class="value">Louvre</td>"#))
            #expect(page.main.contains(#"<h3>bucketList <span class="detail">to-many <a href="/browse/entity/BucketListItem">BucketListItem</a>, delete rule cascade</span></h3>"#))
            #expect(page.main.contains(#"<ul class="related"><li><a href="/browse/model/BucketListItem/1">BucketListItem 1: See the Louvre</a></li><li><a href="/browse/model/BucketListItem/2">BucketListItem 2: Eiffel &lt;tower&gt;</a></li></ul>"#))
            #expect(page.main.contains(#"<li><a href="/browse/model/LivingAccommodation/1">LivingAccommodation 1: Hotel du Nord</a></li>"#))
            #expect(page.main.contains(#"<span class="kind">Inserted</span> by <span class="author">an unnamed author</span></li>"#))
            let item = try await LoggedInClient.logIn(client).get("/browse/model/BucketListItem/2")
            #expect(item.main.contains(#"<ul class="related"><li><a href="/browse/model/Trip/1">Trip 1: Paris</a></li></ul>"#))
            #expect(try await LoggedInClient.logIn(client).get("/browse/model/Trip/99").status == .notFound)
            #expect(try await LoggedInClient.logIn(client).get("/browse/model/Trip/x").status == .notFound)
        }
    }

    @Test func anEditIsSavedThroughAContextAndRecordedInTheHistory() async throws {
        let harness = try tripHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let form = try await user.get("/browse/model/Trip/1/edit/budgetCents")
            #expect(form.main.contains(#"<input id="value" name="value" type="text" inputmode="numeric" value="120000" aria-describedby="value-help">"#))
            let saved = try await user.post("/browse/model/Trip/1/edit/budgetCents", [("value", "99000")], formOn: "/browse/model/Trip/1/edit/budgetCents")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/browse/model/Trip/1?saved=budgetCents")
            let cleared = try await user.post("/browse/model/Trip/1/edit/notes", [("value", "ignored"), ("nil", "on")], formOn: "/browse/model/Trip/1/edit/notes")
            #expect(cleared.status == .seeOther)
            #expect(try trips(harness) == ["Oslo 0 nil", "Paris 99000 nil"])
            let page = try await user.get("/browse/model/Trip/1?saved=notes")
            #expect(page.main.contains(#"<p class="notice" role="status">Saved notes.</p>"#))
            #expect(page.main.contains(#"<span class="kind">Updated</span> by <span class="author">openswiftdata-browser</span>: notes</li>"#))
            #expect(page.main.contains(#"<span class="kind">Updated</span> by <span class="author">openswiftdata-browser</span>: budgetCents</li>"#))
            let date = try await user.post("/browse/model/Trip/2/edit/startDate", [("value", "2026-07-04T10:30:00Z")], formOn: "/browse/model/Trip/2/edit/startDate")
            #expect(date.status == .seeOther)
            let oslo = try ModelContext(harness.container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" }))
            #expect(oslo.map(\.startDate) == [Date(timeIntervalSince1970: 1_783_161_000)])
        }
    }

    @Test func aRefusedValueOrSaveShowsWhyAndChangesNothing() async throws {
        let harness = try tripHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let edit = "/browse/model/Trip/2/edit/name"
            let invalid = try await user.post("/browse/model/Trip/2/edit/budgetCents", [("value", "lots")], formOn: edit)
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.main.contains(#"<div class="error" role="alert"><p>The value was not saved:</p><p class="message">budgetCents: lots is not a whole number.</p></div>"#))
            #expect(invalid.main.contains(#"value="lots""#))
            let overflow = try await user.post("/browse/model/Trip/2/edit/budgetCents", [("value", "99999999999999999999")], formOn: edit)
            #expect(overflow.status == .unprocessableContent)
            let infinite = try await user.post("/browse/model/Trip/2/edit/budgetCents", [("value", "1e400")], formOn: edit)
            #expect(infinite.status == .unprocessableContent)
            let notNil = try await user.post(edit, [("value", ""), ("nil", "on")], formOn: edit)
            #expect(notNil.main.contains("name cannot be nil."))
            // Trip is unique on name and start date: a second Paris on the same day is refused.
            let duplicate = try await user.post(edit, [("value", "Paris")], formOn: edit)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.main.contains("<p>The store refused the save; nothing changed:</p>"))
            #expect(duplicate.main.contains("uniqueConstraintViolation"))
            #expect(try trips(harness) == ["Oslo 0 nil", "Paris 120000 Louvre"])
        }
    }

    @Test func aDeleteAppliesTheDeleteRules() async throws {
        let harness = try tripHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let confirm = try await user.get("/browse/model/Trip/1/delete")
            #expect(confirm.main.contains("deleting it also deletes the models in bucketList, livingAccommodation (cascade)."))
            let deleted = try await user.post("/browse/model/Trip/1/delete", [], formOn: "/browse/model/Trip/1/delete")
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/browse/entity/Trip?deleted=1")
            #expect(try trips(harness) == ["Oslo 0 nil"])
            #expect(try ModelContext(harness.container).fetchCount(FetchDescriptor<BucketListItem>()) == 0)
            #expect(try ModelContext(harness.container).fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
            let list = try await user.get("/browse/entity/Trip?deleted=1")
            #expect(list.main.contains(#"<p class="notice" role="status">Deleted Trip 1.</p>"#))
            #expect(try await user.get("/browse/model/Trip/1").status == .notFound)
        }
    }

    @Test func aDenyRuleRefusesTheDeleteAndShowsTheStoresError() async throws {
        let harness = try BrowserHarness(schema: citySchema)
        defer { harness.removeStore() }
        try harness.seed { context in
            let city = BrowsedCity(code: "osl", name: "Oslo", population: 700_000)
            context.insert(city)
            city.sights = [BrowsedSight(title: "Opera")]
        }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let refused = try await user.post("/browse/model/BrowsedCity/1/delete", [], formOn: "/browse/model/BrowsedCity/1/delete")
            #expect(refused.status == .conflict)
            #expect(refused.main.contains("<p>The store did not delete it:</p>"))
            #expect(try ModelContext(harness.container).fetchCount(FetchDescriptor<BrowsedCity>()) == 1)
            let tags = try await user.post("/browse/model/BrowsedCity/1/edit/tags", [("value", #"["port", "capital"]"#)], formOn: "/browse/model/BrowsedCity/1/edit/tags")
            #expect(tags.status == .seeOther)
            #expect(try ModelContext(harness.container).fetch(FetchDescriptor<BrowsedCity>()).map(\.tags) == [["port", "capital"]])
            let form = try await user.get("/browse/model/BrowsedCity/1/edit/isCapital")
            #expect(form.main.contains(#"<select id="value" name="value" aria-describedby="value-help"><option value="true">true</option><option value="false">false</option></select>"#))
            #expect(form.main.contains(#"<input id="nil" name="nil" type="checkbox" checked>"#))
        }
    }

    @Test func aReadOnlyBrowserOffersNoEditAndRefusesOne() async throws {
        let harness = try tripHarness(mode: .readOnly)
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let page = try await user.get("/browse/model/Trip/1")
            #expect(!page.main.contains("/edit/"))
            #expect(!page.main.contains("/delete"))
            #expect(page.text.contains(#"<p class="mode">Read-only</p>"#))
            let refused = try await user.post("/browse/model/Trip/1/edit/name", [("value", "Gone")], formOn: "/browse/model/Trip/1")
            #expect(refused.status == .forbidden)
            #expect(refused.main.contains("This browser is read-only; start the server with --browse=edit to edit and delete models."))
            #expect(try await user.post("/browse/model/Trip/1/delete", [], formOn: "/browse/model/Trip/1").status == .forbidden)
            #expect(try trips(harness) == ["Oslo 0 nil", "Paris 120000 Louvre"])
        }
    }
}
