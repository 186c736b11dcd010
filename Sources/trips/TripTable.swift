import Foundation
import SampleTrips

/// Trips as an aligned text table.
struct TripTable {
    let trips: [Trip]
    init(_ trips: [Trip]) { self.trips = trips }

    func render() -> String {
        let header = ["#", "Name", "Destination", "Start", "End", "Days", "Budget"]
        let rows = trips.map { trip in
            ["\(trip.number)", trip.name, trip.destination, DateDisplay.string(trip.startDate),
             DateDisplay.string(trip.endDate), "\(trip.days)", TripTable.money(trip.budget)]
        }
        let numeric: Set<Int> = [0, 5, 6]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }

    static func money(_ amount: Double) -> String {
        String(format: "%.2f", amount)
    }
}
