import Foundation
import OpenSwiftData
import SampleTrips
@testable import StoreBrowser
import Testing

/// The filter bar's text becomes the tree its `#Predicate` translates to, checked against the
/// entity, with a message that says what to change when it cannot.
@Suite struct FilterParserTests {
    static let schema = Schema(versionedSchema: TripsSchemaV2.self)
    static let browsed = BrowsedSchema(schema)
    static let translator = ModelQueryResolution.translator(for: schema)
    static let storeIdentifier = "FILTER-STORE"

    func parse(_ text: String, entity: String) throws -> QueryExpression? {
        var parser = FilterParser(schema: Self.browsed, entity: try Self.browsed.entity(named: entity), storeIdentifier: Self.storeIdentifier)
        return try parser.parse(text)
    }

    static let june = Date(timeIntervalSince1970: 1_780_272_000)

    static let tripFilters: [FilterCase<Trip>] = [
        FilterCase(#"name == "Paris""#, #Predicate { $0.name == "Paris" }),
        FilterCase(#"$0.name != "Paris""#, #Predicate { $0.name != "Paris" }),
        FilterCase(#"budgetCents > 100 && destination != "Oslo""#, #Predicate { $0.budgetCents > 100 && $0.destination != "Oslo" }),
        FilterCase("budgetCents >= -5 || budgetCents < 2 && budgetCents <= 3", #Predicate { $0.budgetCents >= -5 || $0.budgetCents < 2 && $0.budgetCents <= 3 }),
        FilterCase("!(budgetCents <= 5)", #Predicate { !($0.budgetCents <= 5) }),
        FilterCase("5 < budgetCents", #Predicate { $0.budgetCents > 5 }),
        FilterCase("notes == nil", #Predicate { $0.notes == nil }),
        FilterCase(#"notes != "x""#, #Predicate { $0.notes != "x" }),
        FilterCase(#"name.contains("ar")"#, #Predicate { $0.name.contains("ar") }),
        FilterCase(#"name.localizedStandardContains("rome")"#, #Predicate { $0.name.localizedStandardContains("rome") }),
        FilterCase(#"name.starts(with: "Pa")"#, #Predicate { $0.name.starts(with: "Pa") }),
        FilterCase(#"notes.contains("Lou")"#, #Predicate { $0.notes?.contains("Lou") == true }),
        FilterCase(#"(notes ?? "") > "m""#, #Predicate { ($0.notes ?? "") > "m" }),
        FilterCase("startDate >= 2026-06-01", #Predicate { $0.startDate >= june }),
        FilterCase(#"startDate < "2026-06-01T00:00:00Z""#, #Predicate { $0.startDate < june }),
        FilterCase(#"livingAccommodation.placeName == "Nord""#, #Predicate { $0.livingAccommodation?.placeName == "Nord" }),
        FilterCase(#"livingAccommodation.placeName.contains("Nord")"#, #Predicate { $0.livingAccommodation?.placeName.contains("Nord") == true }),
        FilterCase("livingAccommodation == nil", #Predicate { $0.livingAccommodation == nil }),
    ]

    @Test(arguments: tripFilters)
    func aTripFilterIsTheTreeOfItsPredicate(_ filter: FilterCase<Trip>) throws {
        #expect(try parse(filter.text, entity: "Trip") == Self.translator.translate(filter.predicate))
    }

    static let tripKey = try! PersistentIdentifier.identifier(for: storeIdentifier, entityName: "Trip", primaryKey: Int64(3))

    static let itemFilters: [FilterCase<BucketListItem>] = [
        FilterCase("isInPlan && !hasReservation", #Predicate { $0.isInPlan && !$0.hasReservation }),
        FilterCase("hasReservation == false", #Predicate { $0.hasReservation == false }),
        FilterCase(#"trip.name == "Paris""#, #Predicate { $0.trip?.name == "Paris" }),
        FilterCase("trip == 3", #Predicate { $0.trip?.persistentModelID == tripKey }),
    ]

    @Test(arguments: itemFilters)
    func aBucketListFilterIsTheTreeOfItsPredicate(_ filter: FilterCase<BucketListItem>) throws {
        #expect(try parse(filter.text, entity: "BucketListItem") == Self.translator.translate(filter.predicate))
    }

    @Test func anEmptyFilterSelectsEverything() throws {
        #expect(try parse("  ", entity: "Trip") == nil)
    }

    static let mistakes: [(String, String)] = [
        ("foo == 1", "Trip has no property foo (at character 1); it has name, destination, startDate, endDate, budgetCents, notes, bucketList, livingAccommodation."),
        ("name ==", "The filter ends where a value or property was expected."),
        (#"name == "Paris" budgetCents > 1"#, "Unexpected “budgetCents” at character 17; join conditions with && or ||."),
        (#"name == "Paris"#, "The string that starts at character 9 has no closing quote."),
        ("budgetCents > 1.5", "budgetCents holds whole numbers; 1.5 is not one (or is too large)."),
        (#"budgetCents == "a""#, "budgetCents holds whole numbers; compare it with a value such as 0."),
        ("name == nil", "name is never nil."),
        (#"notes < "m""#, "notes may be nil: write (notes ?? \"\") < …, as #Predicate needs."),
        ("startDate > 2026-13-45", "2026-13-45 is not a date; write 2026-06-01 or 2026-06-01T09:30:00Z."),
        (#"bucketList.title == "x""#, "bucketList is a to-many relationship; filter BucketListItem by its trip instead."),
        ("name == destination", "At character 1: compare a property with a value, as in name == \"Paris\"."),
        ("budgetCents", "At character 1: a condition needs a comparison, as in name == \"Paris\", or a true/false property."),
        (#"name.uppercased("a")"#, "Strings offer contains, localizedStandardContains and starts(with:), not uppercased."),
        ("name == # 1", "Unexpected “#” at character 9."),
    ]

    @Test(arguments: mistakes)
    func aMistakeIsNamedWithWhatToChange(_ text: String, _ message: String) {
        #expect(throws: FilterError.self) { try parse(text, entity: "Trip") }
        do {
            _ = try parse(text, entity: "Trip")
        } catch let error as FilterError {
            #expect(error.message == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCollectionAttributeOffersContains() throws {
        let browsed = BrowsedSchema(citySchema)
        var parser = FilterParser(schema: browsed, entity: try browsed.entity(named: "BrowsedCity"), storeIdentifier: "S")
        let translated = try ModelQueryResolution.translator(for: citySchema).translate(#Predicate<BrowsedCity> { $0.tags.contains("port") })
        #expect(try parser.parse(#"tags.contains("port")"#) == translated)
        #expect(try parser.parse("isCapital == true") == ModelQueryResolution.translator(for: citySchema).translate(#Predicate<BrowsedCity> { $0.isCapital == true }))
    }
}

/// A filter and the predicate it stands for, shown by its text: describing a `Predicate` stops
/// the process on Linux.
struct FilterCase<Model: PersistentModel>: Sendable, CustomTestStringConvertible {
    let text: String
    let predicate: Predicate<Model>

    init(_ text: String, _ predicate: Predicate<Model>) {
        self.text = text
        self.predicate = predicate
    }

    var testDescription: String { text }
}
