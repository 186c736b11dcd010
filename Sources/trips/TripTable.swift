import Foundation
import SampleTrips

/// Trips as a text table, aligned by display width (CJK and emoji take two columns).
struct TripTable {
    let trips: [Trip]
    let catalog: TripCatalog

    func render() -> String {
        let header = ["#", "Name", "Destination", "Start", "End", "Days", "Budget"]
        let rows = trips.map { trip in
            ["\(catalog.number(trip))", trip.name, trip.destination, DateDisplay.string(trip.startDate),
             DateDisplay.string(trip.endDate), "\(trip.days)", TripTable.money(trip.budget)]
        }
        let numeric: Set<Int> = [0, 5, 6]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].displayWidth }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let text = cells.enumerated().map { column, cell in
                numeric.contains(column) ? cell.alignedRightToDisplayWidth(widths[column]) : cell.paddedToDisplayWidth(widths[column])
            }.joined(separator: "  ")
            return String(text.reversed().drop(while: { $0 == " " }).reversed())
        }
        let rule = line(widths.map { String(repeating: "-", count: $0) })
        return ([Terminal.bold(line(header)), Terminal.dim(rule)] + rows.map(line)).joined(separator: "\n")
    }

    static func money(_ amount: Double) -> String {
        String(format: "%.2f", amount)
    }
}
