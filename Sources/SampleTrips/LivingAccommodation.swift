import Foundation
import OpenSwiftData

/// Where the travellers stay on a trip.
@Model public final class LivingAccommodation {
    public var placeName: String
    public var address: String
    public var trip: Trip?

    public init(placeName: String, address: String) {
        self.placeName = placeName
        self.address = address
    }
}
