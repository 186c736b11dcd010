import Foundation
import OpenSwiftData
import SampleTrips

/// Every trip of the store, by start date then name, and the numbers `trips list` shows for them.
///
/// A trip's number is its store key where the store has integer keys (the default store), so it
/// stays the same while other trips come and go. Stores keyed otherwise (a JSON store's UUIDs,
/// behind `--remote`) number trips by their position in this order, from 1.
struct TripCatalog {
    let trips: [Trip]
    private let positions: [PersistentIdentifier: Int64]

    init(_ context: ModelContext) throws {
        trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)]))
        let keyed = trips.allSatisfy { if case .integer = $0.persistentModelID.primaryKey { true } else { false } }
        positions = keyed ? [:] : Dictionary(uniqueKeysWithValues: trips.enumerated().map { ($1.persistentModelID, Int64($0 + 1)) })
    }

    func number(_ trip: Trip) -> Int64 {
        if case .integer(let key) = trip.persistentModelID.primaryKey { return key }
        return positions[trip.persistentModelID] ?? 0
    }

    /// `#3 Paris`: how messages name a trip.
    func label(_ trip: Trip) -> String { "#\(number(trip)) \(trip.name)" }

    /// The one trip `text` names: its number in `trips list`, or its name.
    func resolve(_ text: String) throws -> Trip {
        if let number = Int64(text), let trip = trips.first(where: { self.number($0) == number }) { return trip }
        let named = trips.filter { $0.name == text }
        switch named.count {
        case 1: return named[0]
        case 0: throw TripsError("No trip is named or numbered '\(text)'. Run `trips list` to see the trips and their numbers.")
        default:
            let numbers = named.map { "#\(number($0))" }.joined(separator: ", ")
            throw TripsError("\(named.count) trips are named '\(text)' (\(numbers)); name one by its number.")
        }
    }
}

/// A failure the user can fix; ArgumentParser prints the message and exits with status 1.
struct TripsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
