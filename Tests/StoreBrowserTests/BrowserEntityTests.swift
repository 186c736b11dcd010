import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenSwiftData
import SampleTrips
import Testing

/// An entity's page: one column per attribute, sorted by any of them, filtered by the filter bar,
/// paged by offset (or by keyset on a unique column), all of it in the URL.
@Suite struct BrowserEntityTests {
    static let day = Date(timeIntervalSince1970: 1_780_272_000)

    /// 120 cities, c001…c120, with populations counting down, every third one a capital, every
    /// fifth unknown.
    func cityHarness(pageSize: Int = 50, store: BrowsedStoreKind = .sqlite) throws -> BrowserHarness {
        let harness = try BrowserHarness(schema: citySchema, store: store, pageSize: pageSize)
        try harness.seed { context in
            for number in 1...120 {
                let capital: Bool? = number % 5 == 0 ? nil : number % 3 == 0
                context.insert(BrowsedCity(code: String(format: "c%03d", number), name: "City \(number)", population: 1000 - number,
                                           isCapital: capital, tags: number % 2 == 0 ? ["port"] : []))
            }
        }
        return harness
    }

    /// The cities' codes (`c001`…) of a table page's rows, in order: the same on every store,
    /// where primary keys are not.
    func codes(_ page: TestResponse) -> [String] {
        page.main.components(separatedBy: #"<tr><th scope="row">"#).dropFirst().compactMap { row in
            row.range(of: #"c[0-9]{3}"#, options: .regularExpression).map { String(row[$0]) }
        }
    }

    /// The row labels (primary keys) of a table page, in order.
    func keys(_ page: TestResponse) -> [String] {
        page.main.components(separatedBy: #"<tr><th scope="row"><a href=""#).dropFirst().map { row in
            String(row.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        }
    }

    @Test func aTableHasAColumnPerAttributeThenPerRelationship() async throws {
        let harness = try BrowserHarness()
        defer { harness.removeStore() }
        try harness.seed { context in
            let trip = Trip(name: "<script>alert(1)</script>", destination: "Oslo", startDate: Self.day, endDate: Self.day, budgetCents: 250)
            context.insert(trip)
            trip.bucketList = [BucketListItem(title: "Fjord", details: "boat", hasReservation: false, isInPlan: true)]
            trip.livingAccommodation = LivingAccommodation(placeName: "Grand", address: "Karl Johans gate 1")
        }
        try await harness.test { client in
            let page = try await LoggedInClient.logIn(client).get("/browse/entity/Trip")
            #expect(page.status == .ok)
            #expect(page.main.contains(#"<thead><tr><th scope="col">Model</th><th scope="col"><a href="/browse/entity/Trip?sort=name" title="Sort by name ascending">name<span aria-hidden="true"></span></a></th>"#))
            #expect(page.main.contains(#"<th scope="col">bucketList</th><th scope="col">livingAccommodation</th></tr></thead>"#))
            #expect(page.main.contains(#"<tr><th scope="row"><a href="/browse/model/Trip/1">1</a></th><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>Oslo</td><td class="date">2026-06-01</td><td class="date">2026-06-01</td><td class="number">250</td><td class="nil-cell"><span class="nil">nil</span></td><td class="number">1 model</td><td><a href="/browse/model/LivingAccommodation/1">LivingAccommodation 1: Grand</a></td></tr>"#))
            #expect(!page.text.contains("<script>alert(1)</script>"))
            #expect(page.main.contains("<caption>Trip 1–1 of 1</caption>"))
        }
    }

    @Test func pagesGoByOffsetAndHoldTheSortAndFilterInTheURL() async throws {
        let harness = try cityHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let first = try await user.get("/browse/entity/BrowsedCity?sort=population")
            #expect(keys(first).prefix(3) == ["120", "119", "118"])
            #expect(keys(first).count == 50)
            #expect(first.main.contains(#"<th scope="col" aria-sort="ascending"><a href="/browse/entity/BrowsedCity?sort=population&amp;order=desc" title="Sort by population descending">population<span aria-hidden="true"> ▲</span></a></th>"#))
            #expect(first.main.contains(#"<li><a href="/browse/entity/BrowsedCity?sort=population&amp;page=2" rel="next">Next page</a></li>"#))
            #expect(first.main.contains(#"<li><a href="/browse/entity/BrowsedCity?sort=population&amp;page=3" rel="last">Last page</a></li>"#))
            let last = try await user.get("/browse/entity/BrowsedCity?sort=population&page=3")
            #expect(keys(last) == (1...20).reversed().map(String.init))
            #expect(last.main.contains("<caption>BrowsedCity 101–120 of 120, sorted by population ascending</caption>"))
            #expect(last.main.contains(#"<li><span aria-disabled="true">Next page</span></li>"#))
            let filtered = try await user.get("/browse/entity/BrowsedCity?filter=population%20%3E%20990%20%26%26%20tags.contains(%22port%22)&sort=population&order=desc")
            #expect(keys(filtered) == ["2", "4", "6", "8"])
            #expect(filtered.main.contains("<p class=\"summary\">4 of 120 models match the filter.</p>"))
            #expect(filtered.main.contains(#"<input id="filter" name="filter" type="text" value="population &gt; 990 &amp;&amp; tags.contains(&quot;port&quot;)""#))
            #expect(filtered.main.contains(#"<input type="hidden" name="sort" value="population">"#))
            #expect(filtered.main.contains(#"<input type="hidden" name="order" value="desc">"#))
            #expect(filtered.main.contains(#"<a class="clear" href="/browse/entity/BrowsedCity?sort=population&amp;order=desc">Clear</a>"#))
        }
    }

    @Test func aUniqueSortColumnPagesByKeyset() async throws {
        let harness = try cityHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let first = try await user.get("/browse/entity/BrowsedCity?sort=code")
            #expect(keys(first) == (1...50).map(String.init))
            #expect(first.main.contains(#"<li><a href="/browse/entity/BrowsedCity?sort=code&amp;after=c050" rel="next">Next page</a></li>"#))
            #expect(!first.main.contains("Last page"))
            let second = try await user.get("/browse/entity/BrowsedCity?sort=code&after=c050")
            #expect(keys(second) == (51...100).map(String.init))
            #expect(second.main.contains("<caption>BrowsedCity 51–100 of 120, sorted by code ascending</caption>"))
            #expect(second.main.contains("Page 2 of 3"))
            #expect(second.main.contains(#"<li><a href="/browse/entity/BrowsedCity?sort=code&amp;before=c051" rel="prev">Previous page</a></li>"#))
            let back = try await user.get("/browse/entity/BrowsedCity?sort=code&before=c051")
            #expect(keys(back) == (1...50).map(String.init))
            #expect(back.main.contains(#"<li><span aria-disabled="true">Previous page</span></li>"#))
            let descending = try await user.get("/browse/entity/BrowsedCity?sort=code&order=desc&after=c071")
            #expect(keys(descending) == (21...70).reversed().map(String.init))
            let third = try await user.get("/browse/entity/BrowsedCity?sort=code&after=c100")
            #expect(keys(third) == (101...120).map(String.init))
            #expect(third.main.contains(#"<li><span aria-disabled="true">Next page</span></li>"#))
        }
    }

    @Test(arguments: BrowsedStoreKind.allCases)
    func everyStoreAnswersTheSamePages(_ store: BrowsedStoreKind) async throws {
        let harness = try cityHarness(pageSize: 10, store: store)
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let filtered = try await user.get("/browse/entity/BrowsedCity?filter=population%20%3E%3D%20950%20%26%26%20isCapital%20%3D%3D%20true&sort=name&order=desc")
            #expect(codes(filtered) == ["c009", "c006", "c048", "c042", "c039", "c036", "c033", "c003", "c027", "c024"])
            #expect(filtered.main.contains("13 of 120 models match the filter."))
            let keyset = try await user.get("/browse/entity/BrowsedCity?sort=code&after=c110")
            #expect(codes(keyset) == (111...120).map { String(format: "c%03d", $0) })
            let found = try await user.get("/browse/entity/BrowsedCity?filter=code%20%3D%3D%20%22c007%22")
            let key = try #require(keys(found).first, "the filter finds c007")
            let edited = try await user.post("/browse/model/BrowsedCity/\(key)/edit/population", [("value", "5")], formOn: "/browse/model/BrowsedCity/\(key)/edit/population")
            #expect(edited.status == .seeOther)
            #expect(try ModelContext(harness.container).fetch(FetchDescriptor<BrowsedCity>(predicate: #Predicate { $0.code == "c007" })).map(\.population) == [5])
        }
    }

    @Test func aBoolColumnSortsNilThenFalseThenTrue() async throws {
        let harness = try cityHarness(pageSize: 10)
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let nils = (1...120).filter { $0 % 5 == 0 }
            let falses = (1...120).filter { $0 % 5 != 0 && $0 % 3 != 0 }
            let trues = (1...120).filter { $0 % 5 != 0 && $0 % 3 == 0 }
            var order: [String] = []
            for page in 1...12 {
                order += keys(try await user.get("/browse/entity/BrowsedCity?sort=isCapital&page=\(page)"))
            }
            #expect(order == (nils + falses + trues).map(String.init))
            let descending = keys(try await user.get("/browse/entity/BrowsedCity?sort=isCapital&order=desc&page=4"))
            #expect(descending == (trues + falses + nils).map(String.init)[30..<40].map { $0 })
        }
    }

    @Test func aFilterThatCannotRunSaysWhy() async throws {
        let harness = try cityHarness()
        defer { harness.removeStore() }
        try await harness.test { client in
            let user = try await LoggedInClient.logIn(client)
            let page = try await user.get("/browse/entity/BrowsedCity?filter=population%20%3E%20%22many%22")
            #expect(page.status == .unprocessableContent)
            #expect(page.main.contains(#"<p id="filter-error" class="error" role="alert">population holds whole numbers; compare it with a value such as 0.</p>"#))
            #expect(page.main.contains(#"aria-describedby="filter-help filter-error""#))
            let sort = try await user.get("/browse/entity/BrowsedCity?sort=tags")
            #expect(sort.status == .badRequest)
            #expect(sort.main.contains("BrowsedCity cannot be sorted by tags; sort by one of code, name, population, isCapital."))
            #expect(try await user.get("/browse/entity/Nowhere").status == .notFound)
            #expect(try await user.get("/browse/entity/BrowsedCity?page=0").status == .badRequest)
        }
    }
}
