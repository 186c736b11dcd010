import Foundation
import OpenSwiftData
import SampleTrips

/// A trip named on the command line: its number in `trips list`, or its name.
struct TripReference {
    let text: String

    /// The one trip `text` names.
    func resolve(in context: ModelContext) throws -> Trip {
        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        if let number = Int64(text), let trip = all.first(where: { $0.number == number }) { return trip }
        let named = all.filter { $0.name == text }
        switch named.count {
        case 1: return named[0]
        case 0: throw TripsError("No trip is named or numbered '\(text)'. Run `trips list` to see the trips and their numbers.")
        default:
            let numbers = named.map { "#\($0.number)" }.joined(separator: ", ")
            throw TripsError("\(named.count) trips are named '\(text)' (\(numbers)); name one by its number.")
        }
    }
}

extension Trip {
    /// The store's key for the trip: stable, shown in `trips list`.
    var number: Int64 {
        if case .integer(let key) = persistentModelID.primaryKey { return key }
        return 0
    }
}

/// A failure the user can fix; ArgumentParser prints the message and exits with status 1.
struct TripsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
