import Foundation
import SampleTrips

/// What `--json` prints: trips and bucket-list items as objects with stable keys, days as
/// YYYY-MM-DD, whatever the locale.
enum TripJSON {
    struct TripObject: Encodable {
        let number: Int64
        let name: String
        let destination: String
        let startDate: String
        let endDate: String
        let days: Int
        let budget: Double
        let notes: String?
        let stay: StayObject?
        let bucketList: [ItemObject]?
    }

    struct StayObject: Encodable {
        let placeName: String
        let address: String
    }

    struct ItemObject: Encodable {
        let title: String
        let details: String
        let isInPlan: Bool
        let hasReservation: Bool
    }

    /// A trip; `detailed` adds its stay and bucket list (`trips show`).
    static func object(_ trip: Trip, number: Int64, detailed: Bool = false) -> TripObject {
        TripObject(number: number, name: trip.name, destination: trip.destination, startDate: day(trip.startDate),
                   endDate: day(trip.endDate), days: trip.days, budget: trip.budget, notes: trip.notes,
                   stay: detailed ? trip.livingAccommodation.map { StayObject(placeName: $0.placeName, address: $0.address) } : nil,
                   bucketList: detailed ? items(trip) : nil)
    }

    static func items(_ trip: Trip) -> [ItemObject] {
        BucketLines.sorted(trip).map { ItemObject(title: $0.title, details: $0.details, isInPlan: $0.isInPlan, hasReservation: $0.hasReservation) }
    }

    static func string(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    private static func day(_ date: Date) -> String { dayFormatter.string(from: date) }
}
