import Foundation
import JSONStore
import OpenSwiftData
import Testing

@Suite struct InMemoryStoreTests {
    private func container() throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
    }

    @Test func savedModelsGetIntegerKeysFromTheStore() throws {
        let container = try container()
        let trips = try insertSampleTrips(into: ModelContext(container))
        let identifiers = trips.map(\.persistentModelID)
        #expect(Set(identifiers.map(\.storeIdentifier)).count == 1)
        #expect(identifiers.allSatisfy { $0.storeIdentifier?.hasPrefix("InMemoryStore-") == true })
        #expect(try ModelContext(container).fetchIdentifiers(FetchDescriptor<Trip>()) == identifiers)
    }

    @Test func twoContainersDoNotShareData() throws {
        try insertSampleTrips(into: ModelContext(container()))
        #expect(try ModelContext(container()).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func filtersSortsAndPagesThroughTheContextFallback() throws {
        let container = try container()
        try insertSampleTrips(into: ModelContext(container))
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.budget > 500 }, sortBy: [SortDescriptor(\.budget, order: .reverse)])
        descriptor.fetchLimit = 1
        #expect(try ModelContext(container).fetch(descriptor).map(\.name) == ["Kyoto"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget > 500 })) == 2)
    }

    @Test func modelsLeftAfterDeletingMostKeepTheirInsertionOrder() throws {
        let container = try container()
        let context = ModelContext(container)
        for index in 0..<100 { context.insert(Trip(name: "T\(index)", destination: "D", startDate: epoch + Double(index) * day)) }
        try context.save()
        try context.delete(model: Trip.self, where: #Predicate { $0.name != "T7" && $0.name != "T50" && $0.name != "T99" })
        try context.save()
        context.insert(Trip(name: "New", destination: "D", startDate: epoch))
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["T7", "T50", "T99", "New"])
        let start = epoch
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate > start })).map(\.name) == ["T7", "T50", "T99"])
    }

    @Test func commonAttributeTypesGetTheirQueryFormByTheirExactType() throws {
        let identifier = try PersistentIdentifier.identifier(for: "s", entityName: "Trip", primaryKey: Int64(3))
        let date = Date(timeIntervalSinceReferenceDate: 12)
        let uuid = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let values: [(Any, QueryValue)] = [
            ("a", .string("a")), (3, .integer(3)), (Int64(-4), .integer(-4)), (2.5, .double(2.5)), (true, .bool(true)),
            (date, .date(date)), (uuid, .uuid(uuid)), (identifier, .identifier(identifier)),
            (String?.none as Any, .null), (Int?.some(5) as Any, .integer(5)), (Double?.none as Any, .null),
            ([identifier], .array([.identifier(identifier)])), ([PersistentIdentifier]?.none as Any, .null),
        ]
        for (value, expected) in values { #expect(QueryValue(exactly: value) == expected) }
        #expect(QueryValue(exactly: Float(1)) == nil)
        #expect(QueryValue(exactly: ["a"]) == nil)
    }

    @Test func batchDeleteWithoutAPredicateRemovesEveryModelOfTheType() throws {
        let container = try container()
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        try context.delete(model: Trip.self)
        #expect(trips.allSatisfy { $0.isDeleted })
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func updatesReplaceTheStoredValues() throws {
        let container = try container()
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        trips[2].notes = "rainy"
        try context.save()
        let lyon = try ModelContext(container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lyon" }))
        #expect(lyon.map(\.notes) == ["rainy"])
    }
}

@Suite struct InMemoryStoreQueryTests {
    @Test func theStoreFiltersItselfSoNonMatchingModelsAreNeverBuilt() throws {
        let container = try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
        let trips = try insertSampleTrips(into: ModelContext(container))
        let reader = ModelContext(container)
        let japanese = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Japan" }))
        #expect(japanese.map(\.name) == ["Kyoto"])
        #expect(reader.registeredModel(for: trips[0].persistentModelID) as Trip? == nil)
        #expect(reader.registeredModel(for: trips[2].persistentModelID) as Trip? == nil)
    }

    @Test func sortsBreakTiesByInsertionOrderAndPutNilFirst() throws {
        let container = try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
        let context = ModelContext(container)
        for (name, notes) in [("a", "x"), ("b", nil), ("c", "x"), ("d", nil)] as [(String, String?)] {
            context.insert(Trip(name: name, destination: "D", startDate: epoch, notes: notes))
        }
        try context.save()
        let sorted = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.notes)]))
        #expect(sorted.map(\.name) == ["b", "d", "a", "c"])
    }

    @Test func batchDeleteWithAPredicateRunsInTheStore() throws {
        let container = try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
        let context = ModelContext(container)
        let trips = try insertSampleTrips(into: context)
        try context.delete(model: Trip.self, where: #Predicate { $0.destination == "France" })
        #expect(!context.hasChanges)
        #expect(trips[0].isDeleted && trips[2].isDeleted && !trips[1].isDeleted)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kyoto"])
    }
}

@Suite struct InMemoryStoreUniqueTests {
    @Test func anInsertCollidingWithASavedModelUpdatesIt() throws {
        let container = try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
        let context = ModelContext(container)
        let first = Trip(name: "Paris", destination: "France", startDate: epoch, budget: 100)
        context.insert(first)
        try context.save()
        let again = Trip(name: "Paris", destination: "France", startDate: epoch, budget: 250)
        context.insert(again)
        try context.save()
        #expect(again.persistentModelID == first.persistentModelID)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(stored.map(\.budget) == [250])
    }

    @Test func collidingInsertsOfOneSaveBecomeOneModel() throws {
        let container = try ModelContainer(for: Trip.self, configurations: InMemoryStoreConfiguration())
        let context = ModelContext(container)
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch, budget: 1))
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch, budget: 2))
        context.insert(Trip(name: "Paris", destination: "France", startDate: epoch + day, budget: 3))
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)]))
        #expect(stored.map(\.budget) == [2, 3])
    }
}

/// `contains(where:)` over a to-many, compiled to slot reads of the related models, answers as
/// Swift's own evaluation of the predicate on the models does.
@Suite struct InMemoryStoreRelatedFilterTests {
    @Test func containsWhereOnAToManyMatchesSwiftsOwnEvaluation() throws {
        let container = try ModelContainer(for: Schema([Voyage.self, Ledger.self, Person.self]), configurations: [InMemoryStoreConfiguration()])
        let context = ModelContext(container)
        for (name, titles) in [("Paris", ["Louvre", "Orsay"]), ("Rome", ["Forum"]), ("Empty", []), ("Lyon", ["Louvre"])] {
            let voyage = Voyage(name: name)
            context.insert(voyage)
            for title in titles { voyage.legs.append(Leg(title: title)) }
        }
        try context.save()

        let louvre = "Louvre", forum = "Forum"
        let predicates: [Predicate<Voyage>] = [
            #Predicate { voyage in voyage.legs.contains { $0.title == louvre } },
            #Predicate { voyage in voyage.legs.contains { $0.title != louvre } },
            #Predicate { voyage in voyage.legs.contains { $0.title == louvre || $0.title == forum } && voyage.name != "Lyon" },
            #Predicate { voyage in !voyage.legs.contains { $0.title < "M" } },
        ]
        let reader = ModelContext(container)
        let everyVoyage = try reader.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        var fetched: [[String]] = []
        for predicate in predicates {
            let names = try reader.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
            #expect(names == (try everyVoyage.filter { try predicate.evaluate($0) }.map(\.name)))
            fetched.append(names)
        }
        #expect(fetched == [["Lyon", "Paris"], ["Paris", "Rome"], ["Paris", "Rome"], ["Empty"]])
    }

    /// Many voyages over few legs each (the store tests every leg once, up front), and few
    /// voyages over many unrelated legs (it looks each held leg up): the same answers as Swift's.
    /// In memory (integer keys) and in a JSON file (random string keys), both on the snapshot engine.
    @Test(arguments: [(voyages: 40, looseLegs: 0), (voyages: 3, looseLegs: 60)], [false, true])
    func containsWhereAnswersTheSameWhetherLegsAreTestedOnceOrLookedUp(counts: (voyages: Int, looseLegs: Int), inJSONFile: Bool) throws {
        let (voyages, looseLegs) = counts
        let schema = Schema([Voyage.self, Ledger.self, Person.self])
        let container = inJSONFile
            ? try ModelContainer(for: schema, configurations: [JSONStoreConfiguration(name: "voyages", url: ScratchFiles.store("voyages"))])
            : try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        let context = ModelContext(container)
        let titles = ["Louvre", "Forum", "Orsay"]
        for number in 0..<voyages {
            let voyage = Voyage(name: "V\(number)")
            context.insert(voyage)
            for leg in 0..<(number % 3) { voyage.legs.append(Leg(title: titles[(number + leg) % 3])) }
        }
        for number in 0..<looseLegs { context.insert(Leg(title: titles[number % 3])) }
        try context.save()

        let louvre = "Louvre"
        let predicates: [Predicate<Voyage>] = [
            #Predicate { voyage in voyage.legs.contains { $0.title == louvre } },
            #Predicate { voyage in !voyage.legs.contains { $0.title == louvre } && voyage.name != "V0" },
        ]
        let reader = ModelContext(container)
        let everyVoyage = try reader.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        for predicate in predicates {
            let names = try reader.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
            #expect(names == (try everyVoyage.filter { try predicate.evaluate($0) }.map(\.name)))
        }
        let withLouvre = try reader.fetch(FetchDescriptor(predicate: predicates[0], sortBy: [SortDescriptor(\.name)])).map(\.name)
        // Voyage n holds n % 3 legs titled from n on: only those with n % 3 == 2 reach the Louvre.
        let expected = (0..<voyages).filter { n in (0..<(n % 3)).contains { (n + $0) % 3 == 0 } }.map { "V\($0)" }.sorted()
        #expect(withLouvre == expected)
        #expect(withLouvre.count == (voyages == 40 ? 13 : 1))
    }
}
