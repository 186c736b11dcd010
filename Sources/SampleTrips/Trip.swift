import Foundation
import OpenSwiftData

/// A trip of the WWDC SampleTrips app: where, when, and what it costs.
///
/// This is version 2 of the trips schema (``TripsSchemaV2``): the budget is kept in whole cents,
/// where version 1 (``TripsSchemaV1``) kept a `Double` of currency units.
@Model public final class Trip {
    #Unique<Trip>([\.name, \.startDate])
    #Index<Trip>([\.startDate], [\.destination])

    public var name: String
    public var destination: String
    public var startDate: Date
    public var endDate: Date
    /// The budget in hundredths of the currency unit, so sums and comparisons are exact.
    public var budgetCents: Int = 0
    public var notes: String?
    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) public var bucketList: [BucketListItem] = []
    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip) public var livingAccommodation: LivingAccommodation?

    public init(name: String, destination: String, startDate: Date, endDate: Date, budgetCents: Int = 0, notes: String? = nil) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
        self.budgetCents = budgetCents
        self.notes = notes
    }

    /// The budget in currency units (`budgetCents` ÷ 100).
    public var budget: Double { Double(budgetCents) / 100 }

    /// Whole days from start to end, counting both.
    public var days: Int {
        (Calendar(identifier: .gregorian).dateComponents([.day], from: startDate, to: endDate).day ?? 0) + 1
    }
}

/// The SampleTrips schema: every model type the app persists, at the current version.
public enum SampleTripsSchema {
    public static let models: [any PersistentModel.Type] = TripsSchemaV2.models
}
