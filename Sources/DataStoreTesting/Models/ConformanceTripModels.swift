import Foundation
import OpenSwiftData

/// The two models of SampleTrips' history flow (`DataModel+UnreadTrips`): a widget changes a
/// trip's accommodation, whose place and address survive its deletion in history.
@Model
final class ConformanceTrip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \ConformanceStay.trip)
    var livingAccommodation: ConformanceStay?

    init(name: String) {
        self.name = name
    }
}

@Model
final class ConformanceStay {
    @Attribute(.preserveValueOnDeletion) var placeName: String
    @Attribute(.preserveValueOnDeletion) var address: String
    var isConfirmed: Bool = false
    var trip: ConformanceTrip?

    init(placeName: String, address: String) {
        self.placeName = placeName
        self.address = address
    }
}
