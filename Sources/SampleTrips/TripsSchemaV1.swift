import Foundation
import OpenSwiftData

/// The first version of the trips schema, as the first `trips` releases wrote it: a trip's budget
/// is a `Double` of currency units. Kept so stores they wrote migrate (``TripsMigrationPlan``).
public enum TripsSchemaV1: VersionedSchema {
    /// 1.0.0, the version stores written without a plan recorded.
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    /// The version's three model types.
    public static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self, LivingAccommodation.self] }

    /// A trip as version 1 stores it.
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

        /// A version 1 trip, as the first releases made it.
        public init(name: String, destination: String, startDate: Date, endDate: Date, budget: Double = 0, notes: String? = nil) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
            self.budget = budget
            self.notes = notes
        }
    }

    /// A bucket-list item as version 1 stores it (unchanged in version 2).
    @Model public final class BucketListItem {
        public var title: String
        public var details: String
        public var hasReservation: Bool
        public var isInPlan: Bool
        public var trip: Trip?

        /// A version 1 bucket-list item.
        public init(title: String, details: String = "", hasReservation: Bool = false, isInPlan: Bool = false) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    /// A stay as version 1 stores it (unchanged in version 2).
    @Model public final class LivingAccommodation {
        public var placeName: String
        public var address: String
        public var trip: Trip?

        /// A version 1 stay.
        public init(placeName: String, address: String) {
            self.placeName = placeName
            self.address = address
        }
    }
}
