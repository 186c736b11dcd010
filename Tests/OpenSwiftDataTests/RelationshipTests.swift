import Foundation
import OpenSwiftData
import Testing

/// The stores every relationship rule is checked against.
enum GraphStore: String, CaseIterable, CustomTestStringConvertible {
    case inMemoryStore, sqliteFile, sqliteInMemory

    var testDescription: String { rawValue }

    func container() throws -> ModelContainer {
        let schema = Schema([Voyage.self, Ledger.self, Person.self])
        switch self {
        case .inMemoryStore:
            return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        case .sqliteFile:
            let url = ScratchFiles.store("graph")
            return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url)])
        case .sqliteInMemory:
            return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        }
    }
}

@Suite struct RelationshipTests {

    @Test(arguments: GraphStore.allCases)
    func settingTheToOneSideUpdatesTheToManySideAtOnce(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris"), rome = Voyage(name: "Rome")
        context.insert(paris)
        context.insert(rome)
        let louvre = Leg(title: "Louvre")
        context.insert(louvre)
        louvre.voyage = paris
        #expect(paris.legs.map(\.title) == ["Louvre"])
        louvre.voyage = rome
        #expect(paris.legs.isEmpty)
        #expect(rome.legs.map(\.title) == ["Louvre"])
    }

    @Test(arguments: GraphStore.allCases)
    func settingTheToManySideUpdatesEachToOneSide(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris"), rome = Voyage(name: "Rome")
        context.insert(paris)
        context.insert(rome)
        let louvre = Leg(title: "Louvre"), orsay = Leg(title: "Orsay")
        paris.legs = [louvre, orsay]
        #expect(louvre.voyage === paris && orsay.voyage === paris)
        #expect(louvre.modelContext === context)
        rome.legs.append(orsay)
        #expect(orsay.voyage === rome)
        #expect(paris.legs.map(\.title) == ["Louvre"])
    }

    /// The inverse append writes the to-many where its model holds it; the saved list, which a
    /// rollback restores, is a separate copy of the array and keeps its elements.
    @Test(arguments: GraphStore.allCases)
    func aRolledBackInverseAppendLeavesTheSavedToManyAsItWas(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris")
        context.insert(paris)
        let louvre = Leg(title: "Louvre")
        louvre.voyage = paris
        try context.save()
        let orsay = Leg(title: "Orsay"), versailles = Leg(title: "Versailles")
        orsay.voyage = paris
        versailles.voyage = paris
        orsay.voyage = paris
        #expect(paris.legs.map(\.title) == ["Louvre", "Orsay", "Versailles"])
        context.rollback()
        #expect(paris.legs.map(\.title) == ["Louvre"])
        #expect(try context.fetch(FetchDescriptor<Leg>()).map(\.title) == ["Louvre"])
    }

    @Test(arguments: GraphStore.allCases)
    func oneToOneInversesAreInferredAndKeptExclusive(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris"), rome = Voyage(name: "Rome")
        context.insert(paris)
        context.insert(rome)
        let hotel = Lodging(place: "Hotel")
        paris.lodging = hotel
        #expect(hotel.voyage === paris)
        rome.lodging = hotel
        #expect(hotel.voyage === rome)
        #expect(paris.lodging == nil)
    }

    @Test(arguments: GraphStore.allCases)
    func manyToManyInversesAreInferred(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris"), rome = Voyage(name: "Rome")
        let ada = Traveler(name: "Ada"), bob = Traveler(name: "Bob")
        context.insert(paris)
        paris.travelers = [ada, bob]
        rome.travelers = [ada]
        context.insert(rome)
        #expect(ada.voyages.map(\.name) == ["Paris", "Rome"])
        #expect(bob.voyages.map(\.name) == ["Paris"])
        #expect(ada.modelContext === context && bob.modelContext === context)
        #expect(context.insertedModelsArray.count == 4)
    }

    @Test(arguments: GraphStore.allCases)
    func valuesSetInAnInitializerLinkTheInverseOnInsert(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let paris = Voyage(name: "Paris")
        context.insert(paris)
        let leg = Leg(title: "Louvre", voyage: paris)
        context.insert(leg)
        #expect(paris.legs.map(\.title) == ["Louvre"])
    }

    /// A non-optional to-one assigned in the initializer is written before the model exists
    /// (through its init accessor), so its inverse is linked on insert.
    @Test func aToOneAssignedBeforeTheModelExistsLinksItsInverseOnInsert() throws {
        let container = try ModelContainer(for: Harbor.self, Berth.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let genoa = Harbor(name: "Genoa")
        context.insert(genoa)
        context.insert(Berth(harbor: genoa, number: 7))
        context.insert(Berth(harbor: genoa, number: 9))
        #expect(genoa.berths.map(\.number).sorted() == [7, 9])
        try context.save()
        let reader = ModelContext(container)
        let loaded = try reader.fetch(FetchDescriptor<Harbor>())
        #expect(loaded.map { $0.berths.map(\.number).sorted() } == [[7, 9]])
        #expect(loaded.first?.berths.map(\.harbor.name) == ["Genoa", "Genoa"])
    }

    @Test(arguments: GraphStore.allCases)
    func aGraphSavedInOneContextLoadsLazilyInAnother(store: GraphStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        let paris = Voyage(name: "Paris")
        paris.legs = [Leg(title: "Louvre"), Leg(title: "Orsay")]
        paris.lodging = Lodging(place: "Hotel")
        context.insert(paris)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Leg>()) == 2)
        let reader = ModelContext(container)
        let loaded = try #require(reader.fetch(FetchDescriptor<Voyage>()).first)
        #expect(reader.registeredModel(for: paris.legs[0].persistentModelID) as Leg? == nil)
        #expect(loaded.legs.map(\.title).sorted() == ["Louvre", "Orsay"])
        #expect(loaded.lodging?.place == "Hotel")
        #expect(loaded.legs.allSatisfy { $0.voyage === loaded })
    }

    @Test(arguments: GraphStore.allCases)
    func maximumModelCountIsValidatedAtSave(store: GraphStore) throws {
        let context = ModelContext(try store.container())
        let ledger = Ledger(title: "Household")
        context.insert(ledger)
        ledger.entries = [Entry(amount: 1), Entry(amount: 2), Entry(amount: 3)]
        do {
            try context.save()
            Issue.record("the save succeeded")
        } catch let error as PersistenceError {
            #expect(error.code == .relationshipCountOutOfRange)
            #expect(error.message == "Ledger.entries holds 3 models; it must hold between 0 and 2. Change the relationship, then save again.")
        }
        ledger.entries.removeLast()
        try context.save()
    }
}

@Model final class Harbor {
    var name: String
    @Relationship(inverse: \Berth.harbor) var berths: [Berth] = []
    init(name: String) { self.name = name }
}

@Model final class Berth {
    var harbor: Harbor
    var number: Int
    init(harbor: Harbor, number: Int) {
        self.harbor = harbor
        self.number = number
    }
}
