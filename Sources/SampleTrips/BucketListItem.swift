import Foundation
import OpenSwiftData

/// Something to do on a trip, as in the WWDC SampleTrips app.
@Model public final class BucketListItem {
    public var title: String
    public var details: String
    public var hasReservation: Bool
    public var isInPlan: Bool
    public var trip: Trip?

    public init(title: String, details: String = "", hasReservation: Bool = false, isInPlan: Bool = false) {
        self.title = title
        self.details = details
        self.hasReservation = hasReservation
        self.isInPlan = isInPlan
    }
}
