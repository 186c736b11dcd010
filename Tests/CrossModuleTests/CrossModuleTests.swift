import CrossModuleModels
import OpenSwiftData
import Testing

/// Models and model actors declared in a library target, used from this module as an app uses a
/// model package: only what the macros generate with the right access level makes this compile.
@Suite struct CrossModuleTests {
    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Shelf.self, Book.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    @MainActor
    @Test func modelsSavedThroughAPublicModelActorAreFetchedFromTheMainContext() async throws {
        let container = try makeContainer()
        let librarian = Librarian(modelContainer: container)
        let identifier = try await librarian.shelve(code: "A1", label: "Fiction", titles: ["Emma", "Dune"])

        let shelves = try container.mainContext.fetch(FetchDescriptor<Shelf>())
        #expect(shelves.map(\.code) == ["A1"])
        #expect(shelves.map(\.label) == ["Fiction"])
        #expect(shelves.map(\.persistentModelID) == [identifier])
        let books = try container.mainContext.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        #expect(books.map(\.title) == ["Dune", "Emma"])
        #expect(books.map { $0.shelf?.code } == ["A1", "A1"])
        #expect(await librarian.titles(on: identifier) == ["Dune", "Emma"])
    }

    @MainActor
    @Test func uniqueConstraintDeclaredInAnotherModuleUpdatesTheStoredModel() async throws {
        let container = try makeContainer()
        let librarian = Librarian(modelContainer: container)
        _ = try await librarian.shelve(code: "B2", label: "Poetry", titles: [])
        _ = try await librarian.shelve(code: "B2", label: "Verse", titles: [])

        #expect(container.schema.entitiesByName["Shelf"]?.uniquenessConstraints == [["code"]])
        let shelves = try container.mainContext.fetch(FetchDescriptor<Shelf>())
        #expect(shelves.map(\.code) == ["B2"])
        #expect(shelves.map(\.label) == ["Verse"])
    }

    @MainActor
    @Test func packageModelActorSavesPackageModels() async throws {
        let container = try ModelContainer(for: Sticker.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let stickerer = Stickerer(modelContainer: container)
        try await stickerer.stick("fragile")

        let stickers = try container.mainContext.fetch(FetchDescriptor<Sticker>())
        #expect(stickers.map(\.text) == ["fragile"])
    }

    @Test func fileprivateModelSavedThroughAPrivateModelActorIsFetched() async throws {
        #expect(try await draftTitles(savedThrough: ["outline", "abstract"]) == ["abstract", "outline"])
    }
}
