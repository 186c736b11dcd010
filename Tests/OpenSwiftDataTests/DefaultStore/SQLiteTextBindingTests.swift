import Foundation
import OpenSwiftData
import Testing

/// Text is bound with its length, so every string the store writes or queries with keeps all of
/// its characters: an embedded NUL once cut the stored value short.
@Suite struct SQLiteTextBindingTests {
    private static let places = ["", "a\u{0}b", "Zürich", "a long place name that is not stored inline"]

    private func savedPlaces() throws -> ModelContainer {
        let container = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for place in Self.places { context.insert(StoreVisit(place: place)) }
        try context.save()
        return container
    }

    @Test func emptyEmbeddedNulAndLongTextReadBackWhole() throws {
        let container = try savedPlaces()
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreVisit>(sortBy: [SortDescriptor(\.place)])).map(\.place)
        #expect(stored == ["", "Zürich", "a\u{0}b", "a long place name that is not stored inline"])
    }

    @Test func aPredicateOnTextWithANulMatchesOnlyThatText() throws {
        let container = try savedPlaces()
        let context = ModelContext(container)
        let place = "a\u{0}b"
        let matching = FetchDescriptor<StoreVisit>(predicate: #Predicate { $0.place == place })
        #expect(try context.fetch(matching).map(\.place) == ["a\u{0}b"])
        #expect(try context.fetchIdentifiers(matching).count == 1)
        let prefix = "a"
        #expect(try context.fetchCount(FetchDescriptor<StoreVisit>(predicate: #Predicate { $0.place == prefix })) == 0)
        try context.delete(model: StoreVisit.self, where: #Predicate { $0.place == place })
        let left = try ModelContext(container).fetch(FetchDescriptor<StoreVisit>(sortBy: [SortDescriptor(\.place)])).map(\.place)
        #expect(left == ["", "Zürich", "a long place name that is not stored inline"])
    }
}
