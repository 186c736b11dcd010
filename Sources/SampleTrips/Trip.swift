import Foundation
import OpenSwiftData

/// A trip of the WWDC SampleTrips app: where, when, and what it costs.
@Model public final class Trip {
    #Unique<Trip>([\.name, \.startDate])
    #Index<Trip>([\.startDate], [\.destination])

    public var name: String
    public var destination: String
    public var startDate: Date
    public var endDate: Date
    public var budget: Double = 0
    public var notes: String?
    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) public var bucketList: [BucketListItem] = []
    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip) public var livingAccommodation: LivingAccommodation?

    public init(name: String, destination: String, startDate: Date, endDate: Date, budget: Double = 0, notes: String? = nil) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
        self.budget = budget
        self.notes = notes
    }

    /// Whole days from start to end, counting both.
    public var days: Int {
        (Calendar(identifier: .gregorian).dateComponents([.day], from: startDate, to: endDate).day ?? 0) + 1
    }
}

/// The SampleTrips schema: every model type the app persists.
public enum SampleTripsSchema {
    public static let models: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self]
}
