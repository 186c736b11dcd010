import Foundation
import OpenSwiftData
import Testing

/// Setting a property compares old and new values where their `Any`s hold them, for the common
/// attribute types; these must answer exactly as `==` does, and leave every other pair to the
/// general comparison.
@Suite struct InlineAttributesTests {
    /// Two equal strings in separate buffers, so that equality cannot be a bitwise accident.
    private static let long = "Saint-Jean-de-Luz, Pyrénées-Atlantiques"
    private static var longRebuilt: String { ["Saint-Jean-de-Luz", "Pyrénées-Atlantiques"].joined(separator: ", ") }

    @Test func equalValuesOfEachCommonTypeCompareEqual() {
        let uuid = UUID(uuidString: "6B1D8A2C-9E4F-4A7B-8C3D-1E2F3A4B5C6D")!
        let pairs: [(Any, Any)] = [
            (Self.long, Self.longRebuilt), ("Rome", "Rome"), (42, 42), (2.5, 2.5), (0.0, -0.0), (true, true),
            (uuid, UUID(uuidString: uuid.uuidString)!), (Date(timeIntervalSinceReferenceDate: 7), Date(timeIntervalSinceReferenceDate: 7)),
            (String?.none as Any, String?.none as Any), (String?.some("Oslo") as Any, String?.some("Oslo") as Any),
            (Int?.some(3) as Any, Int?.some(3) as Any), (Double?.none as Any, Double?.none as Any),
        ]
        #expect(pairs.map { InlineAttributes.equal($0.0, $0.1) } == Array(repeating: true, count: 12))
    }

    @Test func differentValuesOfEachCommonTypeCompareUnequal() {
        let pairs: [(Any, Any)] = [
            (Self.long, Self.long + "!"), ("Rome", "Roma"), (42, -42), (2.5, 2.25), (Double.nan, Double.nan), (true, false),
            (UUID(uuidString: "6B1D8A2C-9E4F-4A7B-8C3D-1E2F3A4B5C6D")!, UUID(uuidString: "6B1D8A2C-9E4F-4A7B-8C3D-1E2F3A4B5C6E")!),
            (Date(timeIntervalSinceReferenceDate: 7), Date(timeIntervalSinceReferenceDate: 8)),
            (String?.none as Any, String?.some("") as Any), (Int?.some(3) as Any, Int?.none as Any),
            (Double?.some(1) as Any, Double?.some(2) as Any),
        ]
        #expect(pairs.map { InlineAttributes.equal($0.0, $0.1) } == Array(repeating: false, count: 11))
    }

    @Test func pairsOfOtherOrDifferentTypesAreLeftToTheGeneralComparison() {
        let pairs: [(Any, Any)] = [
            (Int64(1), Int64(1)), ("Rome", String?.some("Rome") as Any), (1, 1.0), ([1, 2], [1, 2]), (Float(1), Float(1)),
        ]
        #expect(pairs.map { InlineAttributes.equal($0.0, $0.1) } == Array(repeating: nil, count: 5))
    }

    /// The slot's value read through ``InlineAttributes/address(in:at:holding:)``, or nil.
    private func read<Value>(_ values: [Any?], _ slot: Int, as _: Value.Type) -> Value? {
        InlineAttributes.address(in: values, at: slot, holding: AnyOptionalLayout.typeWord(of: Value.self))?.load(as: Value.self)
    }

    @Test func slotsOfTheCommonTypesAreReadWhereTheValuesHoldThem() {
        let uuid = UUID(uuidString: "6B1D8A2C-9E4F-4A7B-8C3D-1E2F3A4B5C6D")!
        let values: [Any?] = [Self.longRebuilt, 42, 2.5, true, uuid, epoch, String?.none as Any, Int?.some(9) as Any, Double?.none as Any]
        #expect(read(values, 0, as: String.self) == Self.long)
        #expect(read(values, 1, as: Int.self) == 42)
        #expect(read(values, 2, as: Double.self) == 2.5)
        #expect(read(values, 3, as: Bool.self) == true)
        #expect(read(values, 4, as: UUID.self) == uuid)
        #expect(read(values, 5, as: Date.self) == epoch)
        #expect(read(values, 6, as: String?.self) == .some(nil))
        #expect(read(values, 7, as: Int?.self) == .some(9))
        #expect(read(values, 8, as: Double?.self) == .some(nil))
    }

    @Test func slotsOfAnotherTypeOrUnsetAreLeftToTheGeneralRead() {
        let values: [Any?] = ["Rome", nil, Int64(3), [1, 2], 7]
        #expect(read(values, 0, as: Int.self) == nil)
        #expect(read(values, 0, as: String?.self) == nil)
        #expect(read(values, 1, as: String.self) == nil)
        #expect(read(values, 2, as: Int64.self) == nil)
        #expect(read(values, 3, as: [Int].self) == nil)
        #expect(read(values, 4, as: Int?.self) == nil)
    }

    @Test func aFetchedModelReadsEveryCommonTypeItWasSavedWith() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        writer.insert(Trip(name: Self.long, destination: "France", startDate: epoch, budget: 1200.5, notes: nil))
        writer.insert(Trip(name: "Rome", destination: "Italy", startDate: epoch + 86_400, notes: "pasta"))
        try writer.save()

        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Rome", Self.long])
        #expect(trips.map(\.destination) == ["Italy", "France"])
        #expect(trips.map(\.startDate) == [epoch + 86_400, epoch])
        #expect(trips.map(\.budget) == [0, 1200.5])
        #expect(trips.map(\.notes) == ["pasta", nil])
        trips[1].notes = "beach"
        #expect(trips[1].notes == "beach")
    }

    @Test func settingEqualValuesBuiltElsewhereLeavesASavedModelUnchanged() throws {
        let (container, _) = try scriptedContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: Self.long, destination: "France", startDate: epoch, budget: 1200)
        context.insert(trip)
        try context.save()

        trip.name = Self.longRebuilt
        trip.destination = String("Francee".dropLast())
        trip.startDate = Date(timeIntervalSinceReferenceDate: epoch.timeIntervalSinceReferenceDate)
        trip.budget = 1000 + 200
        trip.notes = nil
        #expect(!context.hasChanges)

        trip.budget = 1201
        #expect(context.changedModelsArray.count == 1)
        #expect(trip.budget == 1201)
    }
}
