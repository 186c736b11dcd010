import SwiftData
import Testing

/// Written as for Apple's framework: this file imports SwiftData only, and the module it gets
/// must make the `@Model` expansions (which spell `OpenSwiftData.…`) and the whole API compile.
@Model final class Pantry {
    @SwiftData.Attribute(.unique) var name: String
    @Relationship(deleteRule: .cascade, inverse: \Jar.pantry) var jars: [Jar] = []

    init(name: String) {
        self.name = name
    }
}

@Model final class Jar {
    var label: String
    var grams: Int
    var pantry: Pantry?

    init(label: String, grams: Int) {
        self.label = label
        self.grams = grams
    }
}

@Suite struct ImportSwiftDataTests {
    @Test func modelsDeclaredUnderImportSwiftDataAreInsertedAndFetched() throws {
        let container = try ModelContainer(for: Pantry.self, Jar.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let pantry = Pantry(name: "Larder")
        context.insert(pantry)
        pantry.jars = [Jar(label: "Rice", grams: 900), Jar(label: "Lentils", grams: 450)]
        try context.save()

        let reader = ModelContext(container)
        let fetched = try reader.fetch(FetchDescriptor<Jar>(
            predicate: #Predicate { $0.grams > 500 },
            sortBy: [SortDescriptor(\.label)]
        ))
        #expect(fetched.map(\.label) == ["Rice"])
        #expect(fetched.map { $0.pantry?.name } == ["Larder"])
        #expect(try reader.fetchCount(FetchDescriptor<Jar>()) == 2)
    }

    @Test func moduleQualifiedAttributeReachesTheSchema() throws {
        let entity = try #require(Schema([Pantry.self, Jar.self]).entitiesByName["Pantry"])
        #expect(entity.attributesByName["name"]?.isUnique == true)
        #expect(entity.relationshipsByName["jars"]?.deleteRule == .cascade)
    }
}
