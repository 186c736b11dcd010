import Foundation
import OpenSwiftData
import Testing

/// What every store that keeps history records, and how its descriptors select.
@Suite struct HistoryRulesTests {
    private func inserts<M: PersistentModel>(_ transaction: DefaultHistoryTransaction, of _: M.Type) -> [DefaultHistoryInsert<M>] {
        transaction.changes.compactMap { if case .insert(let insert as DefaultHistoryInsert<M>) = $0 { insert } else { nil } }
    }

    private func updates<M: PersistentModel>(_ transaction: DefaultHistoryTransaction, of _: M.Type) -> [DefaultHistoryUpdate<M>] {
        transaction.changes.compactMap { if case .update(let update as DefaultHistoryUpdate<M>) = $0 { update } else { nil } }
    }

    private func deletes<M: PersistentModel>(_ transaction: DefaultHistoryTransaction, of _: M.Type) -> [DefaultHistoryDelete<M>] {
        transaction.changes.compactMap { if case .delete(let delete as DefaultHistoryDelete<M>) = $0 { delete } else { nil } }
    }

    @Test(arguments: HistoryStore.allCases)
    func eachSaveIsOneTransactionWithOneChangePerModel(store: HistoryStore) throws {
        let context = ModelContext(try store.container())
        context.author = "importer"
        let trip = HistoryTrip(name: "Paris", destination: "France")
        context.insert(trip)
        trip.livingAccommodation = HistoryAccommodation(placeName: "Hôtel du Nord", address: "102 Quai de Jemmapes")
        context.insert(HistoryTrip(name: "Kyoto", destination: "Japan"))
        try context.save()
        trip.name = "Paris in spring"
        trip.destination = "Île-de-France"
        try context.save()

        let transactions = try history(context)
        #expect(transactions.map(\.transactionIdentifier) == [1, 2])
        #expect(transactions.map(\.author) == ["importer", "importer"])
        let first = transactions[0]
        #expect(first.changes.count == 3)
        #expect(inserts(first, of: HistoryTrip.self).count == 2)
        #expect(inserts(first, of: HistoryAccommodation.self).map(\.changedPersistentIdentifier) == [trip.livingAccommodation!.persistentModelID])
        #expect(Set(first.changes.map(\.changedPersistentIdentifier)).count == 3)
        let changeNumbers = transactions.flatMap { $0.changes.compactMap(\.changeIdentifier) }
        #expect(changeNumbers == changeNumbers.sorted() && Set(changeNumbers).count == 4)
        #expect(first.changes.allSatisfy { $0.transactionNumber == 1 })
        let update = try #require(updates(transactions[1], of: HistoryTrip.self).first)
        #expect(transactions[1].changes.count == 1)
        #expect(update.changedPersistentIdentifier == trip.persistentModelID)
        #expect(update.updatedAttributes.map { $0 as PartialKeyPath<HistoryTrip> } == [\HistoryTrip.name, \HistoryTrip.destination])
        #expect(first.storeIdentifier == trip.persistentModelID.storeIdentifier)
        #expect(first.token < transactions[1].token)
        #expect(first.processIdentifier == String(ProcessInfo.processInfo.processIdentifier))
    }

    @Test(arguments: HistoryStore.allCases)
    func updatedAttributesNameExactlyThePropertiesThatChanged(store: HistoryStore) throws {
        let context = ModelContext(try store.container())
        let stay = HistoryAccommodation(placeName: "Casa Andina", address: "Av. La Paz 463")
        context.insert(stay)
        try context.save()
        stay.nights = 3
        stay.isConfirmed = true
        stay.placeName = "Casa Andina"
        try context.save()
        stay.address = "Av. La Paz 463"
        #expect(!context.hasChanges)

        let last = try #require(try history(context).last)
        let update = try #require(updates(last, of: HistoryAccommodation.self).first)
        #expect(update.updatedAttributes.map { $0 as PartialKeyPath<HistoryAccommodation> } == [\HistoryAccommodation.isConfirmed, \HistoryAccommodation.nights])
    }

    @Test(arguments: HistoryStore.allCases)
    func tombstoneHoldsThePreservedValuesOfTheDeletedModel(store: HistoryStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        let stay = HistoryAccommodation(placeName: "Ryokan Yachiyo", address: "34 Nanzenji", isConfirmed: true, nights: 2)
        context.insert(stay)
        try context.save()
        let identifier = stay.persistentModelID
        // Deleted through a context that fetched it, as another process would.
        let other = ModelContext(container)
        other.author = "cleaner"
        other.delete(try #require(try other.fetch(FetchDescriptor<HistoryAccommodation>()).first))
        try other.save()

        let transaction = try #require(try history(context).last)
        #expect(transaction.author == "cleaner")
        let delete = try #require(deletes(transaction, of: HistoryAccommodation.self).first)
        #expect(delete.changedPersistentIdentifier == identifier)
        #expect(delete.tombstone[\.placeName] as? String == "Ryokan Yachiyo")
        #expect(delete.tombstone[\.address] as? String == "34 Nanzenji")
        #expect(delete.tombstone[\.isConfirmed] == nil)
        #expect(delete.tombstone[\.nights] == nil)
        let pairs = delete.tombstone.map { $0 as? (PartialKeyPath<HistoryAccommodation>, any Sendable) }
        #expect(pairs.map { $0?.0 } == [\HistoryAccommodation.placeName, \HistoryAccommodation.address])
    }

    @Test(arguments: HistoryStore.allCases)
    func authorIsNilUnlessTheContextNamesOne(store: HistoryStore) throws {
        let context = ModelContext(try store.container())
        context.insert(HistoryTrip(name: "Lima", destination: "Peru"))
        try context.save()
        #expect(try history(context).map(\.author) == [nil])
    }

    @Test(arguments: HistoryStore.allCases)
    func descriptorsSelectByAuthorEntityTokenAndAnyOtherCondition(store: HistoryStore) throws {
        let container = try store.container()
        for (author, name) in [("app", "Paris"), ("widget", "Kyoto"), ("app", "Lima")] {
            let context = ModelContext(container)
            context.author = author
            context.insert(HistoryTrip(name: name, destination: "?"))
            try context.save()
        }
        let context = ModelContext(container)
        context.insert(HistoryAccommodation(placeName: "Casa Andina", address: "Av. La Paz 463"))
        try context.save()
        func numbers(_ predicate: Predicate<DefaultHistoryTransaction>) throws -> [Int64] {
            try context.fetchHistory(HistoryDescriptor(predicate: predicate)).map(\.transactionIdentifier)
        }
        let first = try #require(try history(context).first?.token)
        let names: Set<String> = ["HistoryAccommodation"]
        #expect(try numbers(#Predicate { $0.author == "app" }) == [1, 3])
        #expect(try numbers(#Predicate { $0.author != "app" }) == [2, 4])
        #expect(try numbers(#Predicate { $0.author == nil }) == [4])
        #expect(try numbers(#Predicate { $0.token > first && $0.author == "app" }) == [3])
        #expect(try numbers(#Predicate { first < $0.token }) == [2, 3, 4])
        #expect(try numbers(#Predicate { $0.changes.contains { names.contains($0.changedPersistentIdentifier.entityName) } }) == [4])
        #expect(try numbers(#Predicate { $0.changes.contains { $0.changedPersistentIdentifier.entityName == "HistoryTrip" } }) == [1, 2, 3])
        // A condition no store runs itself: evaluated in Swift on what the others selected.
        #expect(try numbers(#Predicate { $0.token > first && $0.bundleIdentifier != "" && $0.author != "widget" }) == [3, 4])
    }

    @Test(arguments: HistoryStore.allCases)
    func fetchLimitAndSortSelectTheMostRecentTransactions(store: HistoryStore) throws {
        let context = ModelContext(try store.container())
        try saveEach(["Paris", "Kyoto", "Lima"], in: context)
        var latest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [.init(\.transactionIdentifier, order: .reverse)])
        latest.fetchLimit = 1
        #expect(try context.fetchHistory(latest).map(\.transactionIdentifier) == [3])
        var oldest = HistoryDescriptor<DefaultHistoryTransaction>()
        oldest.fetchLimit = 2
        #expect(try context.fetchHistory(oldest).map(\.transactionIdentifier) == [1, 2])
        var byTime = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.count == 1 },
                                                                  sortBy: [.init(\.timestamp, order: .reverse)])
        byTime.fetchLimit = 2
        #expect(try context.fetchHistory(byTime).map(\.transactionIdentifier) == [3, 2])
    }

    @Test(arguments: HistoryStore.allCases)
    func tokensBeforeDeletedHistoryExpire(store: HistoryStore) throws {
        let context = ModelContext(try store.container())
        try saveEach(["Paris", "Kyoto", "Lima"], in: context)
        let tokens = try history(context).map(\.token)
        let second = tokens[1]
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= second }))
        #expect(try history(context).map(\.transactionIdentifier) == [3])
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: tokens[0]) }
        #expect(try history(context, after: tokens[1]).map(\.transactionIdentifier) == [3])
        #expect(try history(context, after: tokens[2]).isEmpty)
        // New transactions keep counting after the deleted ones.
        context.insert(HistoryTrip(name: "Oslo", destination: "Norway"))
        try context.save()
        #expect(try history(context).map(\.transactionIdentifier) == [3, 4])
    }

    @Test(arguments: HistoryStore.allCases)
    func aTokenOfAnotherStoreIsRefused(store: HistoryStore) throws {
        let one = ModelContext(try store.container())
        one.insert(HistoryTrip(name: "Paris", destination: "France"))
        try one.save()
        let foreign = try #require(try history(one).first?.token)
        let other = ModelContext(try store.container())
        other.insert(HistoryTrip(name: "Kyoto", destination: "Japan"))
        try other.save()
        let error = try #require(throws: PersistenceError.self) { try history(other, after: foreign) }
        #expect(error.code == .foreignHistoryToken)
    }
}

extension HistoryChange {
    /// The change's transaction number, whatever its kind.
    var transactionNumber: Int64? {
        switch self {
        case .insert(let change): change.transactionIdentifier as? Int64
        case .update(let change): change.transactionIdentifier as? Int64
        case .delete(let change): change.transactionIdentifier as? Int64
        }
    }

    var changeIdentifier: Int64? {
        switch self {
        case .insert(let change): change.changeIdentifier as? Int64
        case .update(let change): change.changeIdentifier as? Int64
        case .delete(let change): change.changeIdentifier as? Int64
        }
    }
}

/// `delete(model:where:)`, which a store runs without the models.
@Suite struct BatchDeleteHistoryTests {
    @Test(arguments: HistoryStore.allCases)
    func aBatchDeleteIsOneTransactionOfDeletesWithTombstones(store: HistoryStore) throws {
        let container = try store.container()
        let context = ModelContext(container)
        for (place, nights) in [("Hôtel du Nord", 2), ("Casa Andina", 5), ("Ryokan Yachiyo", 7)] {
            context.insert(HistoryAccommodation(placeName: place, address: "\(place) street", nights: nights))
        }
        try context.save()
        let cleaner = ModelContext(container)
        cleaner.author = "cleaner"
        try cleaner.delete(model: HistoryAccommodation.self, where: #Predicate { ($0.nights ?? 0) > 3 })
        try cleaner.delete(model: HistoryAccommodation.self, where: #Predicate { $0.placeName == "Nowhere" })

        let transactions = try history(context)
        #expect(transactions.count == 2)
        let batch = try #require(transactions.last)
        #expect(batch.author == "cleaner")
        let places = batch.changes.compactMap { change -> String? in
            guard case .delete(let delete as DefaultHistoryDelete<HistoryAccommodation>) = change else { return nil }
            return delete.tombstone[\.placeName] as? String
        }
        #expect(places.sorted() == ["Casa Andina", "Ryokan Yachiyo"])
        try cleaner.delete(model: HistoryAccommodation.self)
        let all = try #require(try history(context).last)
        #expect(all.changes.count == 1)
        #expect(all.changes.first?.changedPersistentIdentifier.entityName == "HistoryAccommodation")
    }
}
