import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteUniqueTests {
    private func container() throws -> ModelContainer {
        try ModelContainer(for: StoreTraveller.self, StoreBooking.self, StoreMember.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    /// A store holding Ana and Bo, saved through the context returned with them.
    private func savedAnaAndBo() throws -> (ModelContainer, ModelContext, ana: StoreTraveller, bo: StoreTraveller) {
        let container = try container()
        let context = ModelContext(container)
        let ana = StoreTraveller(email: "ana@example.com", name: "Ana")
        let bo = StoreTraveller(email: "bo@example.com", name: "Bo")
        context.insert(ana)
        context.insert(bo)
        try context.save()
        return (container, context, ana, bo)
    }

    @Test func anInsertEqualToASavedModelUpdatesItAndTakesItsIdentifier() throws {
        let container = try container()
        let first = ModelContext(container)
        let original = StoreTraveller(email: "ana@example.com", name: "Ana")
        first.insert(original)
        try first.save()

        let second = ModelContext(container)
        let duplicate = StoreTraveller(email: "ana@example.com", name: "Ana Lima")
        second.insert(duplicate)
        try second.save()
        #expect(duplicate.persistentModelID == original.persistentModelID)
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>())
        #expect(stored.map(\.name) == ["Ana Lima"])
    }

    @Test func insertsEqualToEachOtherInOneSaveBecomeOneModelWithTheLastValues() throws {
        let container = try container()
        let context = ModelContext(container)
        let a = StoreTraveller(email: "bo@example.com", name: "Bo")
        let b = StoreTraveller(email: "cy@example.com", name: "Cy")
        let c = StoreTraveller(email: "bo@example.com", name: "Bo Chen")
        for traveller in [a, b, c] { context.insert(traveller) }
        try context.save()
        #expect(a.persistentModelID == c.persistentModelID)
        #expect(a.persistentModelID != b.persistentModelID)
        #expect(context.registeredModel(for: a.persistentModelID) as StoreTraveller? === c)
        #expect(context.registeredModel(for: b.persistentModelID) as StoreTraveller? === b)
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)]))
        #expect(stored.map(\.name) == ["Bo Chen", "Cy"])
    }

    /// Few inserts beside many registered models are re-keyed one by one (the other path of
    /// `commitInserts`); an insert equal to a registered model takes that model's place.
    @Test func insertsIntoAContextHoldingManyModelsAreRegisteredUnderTheirPermanentIdentifiers() throws {
        let container = try container()
        let context = ModelContext(container)
        let travellers = (0..<20).map { StoreTraveller(email: "t\($0)@example.com", name: "T\($0)") }
        for traveller in travellers { context.insert(traveller) }
        try context.save()
        let late = StoreTraveller(email: "late@example.com", name: "Late")
        let again = StoreTraveller(email: "t3@example.com", name: "T3 again")
        context.insert(late)
        context.insert(again)
        try context.save()
        #expect(again.persistentModelID == travellers[3].persistentModelID)
        #expect(context.registeredModel(for: late.persistentModelID) as StoreTraveller? === late)
        #expect(context.registeredModel(for: again.persistentModelID) as StoreTraveller? === again)
        #expect(context.registeredModel(for: travellers[4].persistentModelID) as StoreTraveller? === travellers[4])
        let stored = try ModelContext(container).fetchCount(FetchDescriptor<StoreTraveller>())
        #expect(stored == 21)
    }

    @Test func aCompoundConstraintMatchesOnlyWhenEveryValueIsEqual() throws {
        let container = try container()
        let context = ModelContext(container)
        context.insert(StoreBooking(hotel: "Ritz", night: 1, guest: "Ana"))
        context.insert(StoreBooking(hotel: "Ritz", night: 2, guest: "Bo"))
        try context.save()
        let next = ModelContext(container)
        next.insert(StoreBooking(hotel: "Ritz", night: 2, guest: "Cy"))
        next.insert(StoreBooking(hotel: "Savoy", night: 1, guest: "Di"))
        try next.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreBooking>(sortBy: [SortDescriptor(\.hotel), SortDescriptor(\.night)]))
        #expect(stored.map { "\($0.hotel) \($0.night) \($0.guest)" } == ["Ritz 1 Ana", "Ritz 2 Cy", "Savoy 1 Di"])
    }

    @Test func anUpdateThatCollidesFailsTheWholeSave() throws {
        let (container, context, _, bo) = try savedAnaAndBo()
        bo.email = "ana@example.com"
        context.insert(StoreTraveller(email: "new@example.com", name: "New"))
        let error = try #require(throws: SQLiteStoreError.self) { try context.save() }
        #expect(error.code == .uniqueConstraintViolation)
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)]))
        #expect(stored.map(\.email) == ["ana@example.com", "bo@example.com"])
    }

    @Test func withTwoConstraintsAnInsertTakesTheRowItEqualsOnEither() throws {
        let container = try container()
        let first = ModelContext(container)
        let ana = StoreMember(email: "a@example.com", handle: "ana", name: "Ana")
        first.insert(ana)
        try first.save()

        let next = ModelContext(container)
        let renamed = StoreMember(email: "b@example.com", handle: "ana", name: "Ana B")
        next.insert(renamed)
        next.insert(StoreMember(email: "c@example.com", handle: "cy", name: "Cy"))
        next.insert(StoreMember(email: "c@example.com", handle: "cyrus", name: "Cyrus"))
        try next.save()
        #expect(renamed.persistentModelID == ana.persistentModelID)
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreMember>(sortBy: [SortDescriptor(\.email)]))
        #expect(stored.map { "\($0.email) \($0.handle) \($0.name)" } == ["b@example.com ana Ana B", "c@example.com cyrus Cyrus"])
    }

    /// Inserts are keyed after the save's deletes and updates are written: a twin deleted or
    /// changed in the same save is no longer one, also when that leaves the table empty.
    @Test func aTwinDeletedOrChangedInTheSameSaveIsNotMatched() throws {
        let (container, context, ana, bo) = try savedAnaAndBo()

        context.delete(ana)
        bo.email = "bo@new.example.com"
        let newAna = StoreTraveller(email: "ana@example.com", name: "New Ana")
        let newBo = StoreTraveller(email: "bo@example.com", name: "New Bo")
        context.insert(newAna)
        context.insert(newBo)
        try context.save()
        #expect(newAna.persistentModelID != ana.persistentModelID)
        #expect(newBo.persistentModelID != bo.persistentModelID)
        let stored = try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>(sortBy: [SortDescriptor(\.email)]))
        #expect(stored.map { "\($0.email) \($0.name)" } == ["ana@example.com New Ana", "bo@example.com New Bo", "bo@new.example.com Bo"])

        let emptied = ModelContext(container)
        try emptied.delete(model: StoreTraveller.self)
        emptied.insert(StoreTraveller(email: "ana@example.com", name: "Third Ana"))
        emptied.insert(StoreTraveller(email: "ana@example.com", name: "Fourth Ana"))
        try emptied.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<StoreTraveller>()).map(\.name) == ["Fourth Ana"])
    }
}
